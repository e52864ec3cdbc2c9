import accountHome from './account-home'
import auth from './auth'
import common from './common'
import drive from './drive'
import oauth from './oauth'
import pages from './pages'
import sharePage from './share-page'

/** en-US: the reference tables (every other locale has the same keys, checked by type and test). */
export default { common, auth, accountHome, pages, drive, oauth, sharePage }
