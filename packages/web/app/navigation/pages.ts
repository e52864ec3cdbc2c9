/**
 * The product's pages (spec section 2): each name, its unprefixed path and its route module.
 * routes.ts registers every page once per locale; links are built from names with `pagePath`.
 */
export const PAGES = {
  index: { path: '/', file: 'routes/home.tsx' },
  thunder: { path: '/thunder', file: 'routes/thunder.tsx' },
  about: { path: '/about', file: 'routes/about.tsx' },
  'newbie-guide': { path: '/newbie/guide', file: 'routes/newbie-guide.tsx' },
  toapp: { path: '/toapp', file: 'routes/toapp.tsx' },
  'search-associate': { path: '/search/associate', file: 'routes/search-associate.tsx' },
  'decompress-id': { path: '/decompress/:id', file: 'routes/decompress.tsx' },
  'account-login': { path: '/account/login', file: 'routes/account/login.tsx' },
  'account-home': { path: '/account/home', file: 'routes/account/home.tsx' },
  'account-unregister': { path: '/account/unregister', file: 'routes/account/unregister.tsx' },
  'password-recover': { path: '/password/recover', file: 'routes/password/recover.tsx' },
  // Where identity providers send the browser back (PROVIDER_CALLBACK_PATH: the unprefixed path is
  // the one registered at providers; the localized ones show a failure in the visitor's language).
  'auth-callback': { path: '/auth/callback', file: 'routes/auth-callback.tsx' },
  // Cumulus as an authorization server: GET /v1/auth/authorize sends the browser to the consent
  // page; devices (RFC 8628) tell the user to open the device page.
  authorize: { path: '/authorize', file: 'routes/authorize.tsx' },
  device: { path: '/device', file: 'routes/device.tsx' },
  // The drive's fixed views come before the folder route, whose `:folderId` would match them too.
  drive: { path: '/drive', file: 'routes/drive/folder.tsx' },
  'drive-starred': { path: '/drive/starred', file: 'routes/drive/starred.tsx' },
  'drive-trash': { path: '/drive/trash', file: 'routes/drive/trash.tsx' },
  'drive-shares': { path: '/drive/shares', file: 'routes/drive/shares.tsx' },
  'drive-folder': { path: '/drive/:folderId', file: 'routes/drive/folder.tsx' },
  // A share link (issue 17): opened by anyone, with or without an account.
  share: { path: '/s/:shareId', file: 'routes/share.tsx' },
} as const

export type PageName = keyof typeof PAGES
