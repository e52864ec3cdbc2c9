import type { OAuthScope } from '../constants.js'
import { type Locale, matchLocale } from '../locales.js'

/** What each scope lets an app do, as the consent page and GET /v1/user/authorize/info say it. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Locale, Readonly<Record<OAuthScope, string>>>> = {
  'en-US': {
    pan: 'See, add, change and delete the files in your drive',
    user: 'See and change your account details and membership',
    offline: 'Add and manage offline download tasks',
    openid: 'Confirm who you are',
    profile: 'See your name and profile picture',
    email: 'See your e-mail address',
    phone: 'See your phone number',
  },
  id: {
    pan: 'Melihat, menambah, mengubah, dan menghapus file di drive Anda',
    user: 'Melihat dan mengubah detail akun dan keanggotaan Anda',
    offline: 'Menambah dan mengelola tugas unduhan offline',
    openid: 'Memastikan identitas Anda',
    profile: 'Melihat nama dan foto profil Anda',
    email: 'Melihat alamat email Anda',
    phone: 'Melihat nomor telepon Anda',
  },
  ko: {
    pan: '드라이브의 파일 보기, 추가, 변경 및 삭제',
    user: '계정 정보와 멤버십 보기 및 변경',
    offline: '오프라인 다운로드 작업 추가 및 관리',
    openid: '본인 확인',
    profile: '이름과 프로필 사진 보기',
    email: '이메일 주소 보기',
    phone: '전화번호 보기',
  },
  ms: {
    pan: 'Melihat, menambah, menukar dan memadam fail dalam pemacu anda',
    user: 'Melihat dan menukar butiran akaun dan keahlian anda',
    offline: 'Menambah dan mengurus tugas muat turun luar talian',
    openid: 'Mengesahkan identiti anda',
    profile: 'Melihat nama dan gambar profil anda',
    email: 'Melihat alamat e-mel anda',
    phone: 'Melihat nombor telefon anda',
  },
  'zh-CN': {
    pan: '查看、添加、修改和删除你云盘中的文件',
    user: '查看和修改你的账号资料与会员信息',
    offline: '添加和管理云添加（离线下载）任务',
    openid: '确认你的身份',
    profile: '查看你的昵称和头像',
    email: '查看你的邮箱地址',
    phone: '查看你的手机号',
  },
  'zh-TW': {
    pan: '檢視、新增、修改和刪除你雲端硬碟中的檔案',
    user: '檢視和修改你的帳號資料與會員資訊',
    offline: '新增和管理雲端新增（離線下載）任務',
    openid: '確認你的身分',
    profile: '檢視你的暱稱和大頭貼',
    email: '檢視你的電子郵件地址',
    phone: '檢視你的手機號碼',
  },
}

/** The description of `scope` in the language of `acceptLanguage` (en-US when none of the six fits). */
export function scopeDescription(scope: OAuthScope, locale: string | null | undefined): string {
  return SCOPE_DESCRIPTIONS[matchLocale(locale) ?? 'en-US'][scope]
}
