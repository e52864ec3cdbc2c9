import type { Messages } from '../shape'
import accountHome from './account-home'
import auth from './auth'
import common from './common'
import drive from './drive'
import oauth from './oauth'
import pages from './pages'
import sharePage from './share-page'

export default { common, auth, accountHome, pages, drive, oauth, sharePage } satisfies Messages
