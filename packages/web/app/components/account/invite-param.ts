/** The query parameter of an invite link (/account/login?tab=sign-up&invite=CODE): the sign-up form sends it on. */
export const INVITE_PARAM = 'invite'
