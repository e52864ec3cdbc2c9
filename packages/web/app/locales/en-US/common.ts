export default {
  appName: 'Cumulus',
  tagline: 'Your cloud drive and downloader',
  nav: {
    home: 'Home',
    thunder: 'Cloud download',
    guide: 'Guide',
    about: 'About',
    signIn: 'Sign in',
    account: 'My account',
    skipToContent: 'Skip to content',
    primary: 'Main',
    openMenu: 'Open menu',
  },
  language: {
    label: 'Language',
    // Read out before the language's name: the separator belongs to the language.
    changeTo: 'Change language: ',
  },
  colorMode: {
    label: 'Theme',
    change: 'Change theme',
    light: 'Light',
    dark: 'Dark',
    system: 'System',
    forced: 'This page is shown in the {{mode}} theme',
  },
  footer: {
    rights: '© {{year}} Cumulus. Self-hosted and open.',
    links: 'Footer',
  },
  errorPage: {
    notFoundTitle: 'Page Not Found',
    notFoundMessage: 'Page not found: {{path}}',
    internalTitle: 'Internal Server Error',
    internalMessage: 'Something went wrong on our side. Please try again in a moment.',
    backHome: 'Back to the home page',
    status: 'Error {{status}}',
  },
  errors: {
    captchaClosed: 'The security check was closed. Complete it to continue.',
  },
  loading: 'Loading…',
  close: 'Close',
  cancel: 'Cancel',
  password: {
    show: 'Show password',
    hide: 'Hide password',
  },
  notYetAvailable: 'Coming in a later release',
}
