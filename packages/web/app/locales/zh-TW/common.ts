import type { Messages } from '../shape'

export default {
  appName: 'Cumulus',
  tagline: '你的雲端硬碟與下載器',
  nav: {
    home: '首頁',
    thunder: '雲端下載',
    guide: '新手指南',
    about: '關於',
    signIn: '登入',
    account: '我的帳號',
    skipToContent: '跳到主要內容',
    primary: '主導覽',
    openMenu: '開啟選單',
  },
  language: {
    label: '語言',
    changeTo: '切換語言：',
  },
  colorMode: {
    label: '主題',
    change: '切換主題',
    light: '淺色',
    dark: '深色',
    system: '跟隨系統',
    forced: '此頁面以{{mode}}主題顯示',
  },
  footer: {
    rights: '© {{year}} Cumulus。自行架設，開放。',
    links: '頁尾',
  },
  errorPage: {
    notFoundTitle: '找不到頁面',
    notFoundMessage: '找不到頁面：{{path}}',
    internalTitle: '伺服器內部錯誤',
    internalMessage: '伺服器發生問題，請稍後再試。',
    backHome: '返回首頁',
    status: '錯誤 {{status}}',
  },
  errors: {
    captchaClosed: '安全驗證已關閉。請完成驗證後繼續。',
  },
  loading: '載入中…',
  close: '關閉',
  cancel: '取消',
  password: {
    show: '顯示密碼',
    hide: '隱藏密碼',
  },
  notYetAvailable: '將在後續版本中提供',
} satisfies Messages['common']
