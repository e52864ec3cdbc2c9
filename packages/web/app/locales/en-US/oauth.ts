/**
 * Signing in with other services (the login page's provider buttons and /auth/callback), and
 * Cumulus as the service other apps sign in with: the consent page (/authorize) and the device
 * page (/device). Provider and app names come from the operator's configuration, untranslated.
 */
export default {
  providers: {
    label: 'Sign in with another service',
    continueWith: 'Continue with {{name}}',
  },
  callback: {
    title: 'Signing in',
    finishing: 'Finishing sign-in…',
    failedHeading: 'Sign-in did not finish',
    bindFailedHeading: 'The account was not linked',
    nothingHeading: 'No sign-in in progress',
    nothing: 'This page finishes a sign-in started in this browser tab, and none is waiting. Start again from the sign-in page.',
    backToSignIn: 'Back to sign in',
    backToAccount: 'Back to my account',
  },
  request: {
    wantsAccess: '{{client}} wants to access your Cumulus account',
    signedInAs: 'Signed in as',
    useAnother: 'Use another account',
    scopesLabel: 'This will let {{client}}:',
    trust: 'Allow only apps you trust.',
    allow: 'Allow',
    deny: 'Deny',
  },
  consent: {
    title: 'Allow access',
    checking: 'Checking the request…',
    sentTo: 'Whatever you choose, you will be sent back to {{host}}.',
    returning: 'Returning to {{client}}…',
    failedHeading: 'This request cannot be completed',
    failedHint: 'Go back to the app you came from and try again.',
    home: 'Go to the home page',
  },
  device: {
    title: 'Connect a device',
    heading: 'Connect a device',
    subtitle: 'Enter the code your TV, console or other device shows.',
    codeLabel: 'Code from your device',
    codeHint: 'Eight letters or digits, like WDJB-MJHT.',
    codeRequired: 'Enter the code your device shows.',
    codeInvalid: 'The code has eight letters or digits, like WDJB-MJHT.',
    continue: 'Continue',
    checking: 'Checking the code…',
    matchCode: 'Check that your device shows this code:',
    otherCode: 'Enter another code',
    approvedHeading: 'Device connected',
    approved: 'You can return to your device.',
    deniedHeading: 'Request denied',
    denied: 'The device was not given access to your account.',
    again: 'Connect another device',
  },
}
