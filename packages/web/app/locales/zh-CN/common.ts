import type { Messages } from '../shape'

export default {
  appName: 'Cumulus',
  tagline: '你的云盘与下载器',
  nav: {
    home: '首页',
    thunder: '云下载',
    guide: '新手指南',
    about: '关于',
    signIn: '登录',
    account: '我的账号',
    skipToContent: '跳到正文',
    primary: '主导航',
    openMenu: '打开菜单',
  },
  language: {
    label: '语言',
    changeTo: '切换语言：',
  },
  colorMode: {
    label: '主题',
    change: '切换主题',
    light: '浅色',
    dark: '深色',
    system: '跟随系统',
    forced: '此页面以{{mode}}主题显示',
  },
  footer: {
    rights: '© {{year}} Cumulus。自托管，开放。',
    links: '页脚',
  },
  errorPage: {
    notFoundTitle: '页面不存在',
    notFoundMessage: '页面不存在：{{path}}',
    internalTitle: '服务器内部错误',
    internalMessage: '服务器出了点问题，请稍后再试。',
    backHome: '返回首页',
    status: '错误 {{status}}',
  },
  errors: {
    captchaClosed: '安全验证已关闭。请完成验证后继续。',
  },
  loading: '加载中…',
  close: '关闭',
  cancel: '取消',
  password: {
    show: '显示密码',
    hide: '隐藏密码',
  },
  notYetAvailable: '将在后续版本中提供',
} satisfies Messages['common']
