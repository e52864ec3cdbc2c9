import type { ShareStatus } from '../wire/drive.js'
import type { Locale } from '../locales.js'

/** What the server writes for shares in the caller's language (drive.md "Shares"). */
export interface ShareTexts {
  /** `share_status_text` per status; '' for OK. */
  status: Readonly<Record<ShareStatus, string>>
  /** PASS_CODE_ERROR's text while guesses of this share or from this address are held back. */
  tooManyGuesses: string
  /** NOT_FOUND's text for a file or folder that is not (or no longer) in a share that stands. */
  itemNotFound: string
  /** The folder a share is saved into by default (drive.md: "Pack From Shared", localized). */
  packFolder: string
  /** The share's title when it names several items: `{name}` and `{count}` more. */
  titleMore: string
  /** The text to copy: `{title}`, `{url}`, and the pass-code line when there is one. */
  shareText: string
  passCodeLine: string
}

export const SHARE_TEXTS: Readonly<Record<Locale, ShareTexts>> = {
  'en-US': {
    status: {
      OK: '',
      PASS_CODE_EMPTY: 'Enter the pass code to open this share',
      PASS_CODE_ERROR: 'The pass code is incorrect',
      DELETED: 'This share has been cancelled, or its files were deleted',
      EXPIRED: 'This share has expired',
      NOT_FOUND: 'This share does not exist',
      SENSITIVE_RESOURCE: 'This share is not available',
    },
    tooManyGuesses: 'Too many wrong pass codes. Please try again later',
    itemNotFound: 'This file or folder is no longer in the share',
    packFolder: 'Pack From Shared',
    titleMore: '{name} and {count} more',
    shareText: '{title}\n{url}',
    passCodeLine: 'Pass code: {code}',
  },
  id: {
    status: {
      OK: '',
      PASS_CODE_EMPTY: 'Masukkan kode akses untuk membuka berbagi ini',
      PASS_CODE_ERROR: 'Kode akses salah',
      DELETED: 'Berbagi ini telah dibatalkan, atau filenya telah dihapus',
      EXPIRED: 'Berbagi ini sudah kedaluwarsa',
      NOT_FOUND: 'Berbagi ini tidak ada',
      SENSITIVE_RESOURCE: 'Berbagi ini tidak tersedia',
    },
    tooManyGuesses: 'Terlalu banyak kode akses yang salah. Silakan coba lagi nanti',
    itemNotFound: 'File atau folder ini sudah tidak ada di berbagi ini',
    packFolder: 'Dari Berbagi',
    titleMore: '{name} dan {count} lainnya',
    shareText: '{title}\n{url}',
    passCodeLine: 'Kode akses: {code}',
  },
  ko: {
    status: {
      OK: '',
      PASS_CODE_EMPTY: '이 공유를 열려면 접근 코드를 입력하세요',
      PASS_CODE_ERROR: '접근 코드가 올바르지 않습니다',
      DELETED: '공유가 취소되었거나 파일이 삭제되었습니다',
      EXPIRED: '공유 기간이 만료되었습니다',
      NOT_FOUND: '존재하지 않는 공유입니다',
      SENSITIVE_RESOURCE: '이 공유는 사용할 수 없습니다',
    },
    tooManyGuesses: '잘못된 접근 코드를 너무 많이 입력했습니다. 잠시 후 다시 시도하세요',
    itemNotFound: '이 파일 또는 폴더는 더 이상 공유에 없습니다',
    packFolder: '공유에서 저장',
    titleMore: '{name} 외 {count}개',
    shareText: '{title}\n{url}',
    passCodeLine: '접근 코드: {code}',
  },
  ms: {
    status: {
      OK: '',
      PASS_CODE_EMPTY: 'Masukkan kod laluan untuk membuka perkongsian ini',
      PASS_CODE_ERROR: 'Kod laluan tidak betul',
      DELETED: 'Perkongsian ini telah dibatalkan, atau failnya telah dipadam',
      EXPIRED: 'Perkongsian ini telah tamat tempoh',
      NOT_FOUND: 'Perkongsian ini tidak wujud',
      SENSITIVE_RESOURCE: 'Perkongsian ini tidak tersedia',
    },
    tooManyGuesses: 'Terlalu banyak kod laluan yang salah. Sila cuba lagi kemudian',
    itemNotFound: 'Fail atau folder ini tiada lagi dalam perkongsian ini',
    packFolder: 'Daripada Perkongsian',
    titleMore: '{name} dan {count} lagi',
    shareText: '{title}\n{url}',
    passCodeLine: 'Kod laluan: {code}',
  },
  'zh-CN': {
    status: {
      OK: '',
      PASS_CODE_EMPTY: '请输入提取码查看分享',
      PASS_CODE_ERROR: '提取码错误',
      DELETED: '分享已取消，或分享的文件已被删除',
      EXPIRED: '分享已过期',
      NOT_FOUND: '分享不存在',
      SENSITIVE_RESOURCE: '该分享无法访问',
    },
    tooManyGuesses: '提取码错误次数过多，请稍后再试',
    itemNotFound: '该文件或文件夹已不在分享中',
    packFolder: '来自分享',
    titleMore: '{name} 等 {count} 个文件',
    shareText: '{title}\n{url}',
    passCodeLine: '提取码：{code}',
  },
  'zh-TW': {
    status: {
      OK: '',
      PASS_CODE_EMPTY: '請輸入存取碼查看分享',
      PASS_CODE_ERROR: '存取碼錯誤',
      DELETED: '分享已取消，或分享的檔案已被刪除',
      EXPIRED: '分享已過期',
      NOT_FOUND: '分享不存在',
      SENSITIVE_RESOURCE: '此分享無法存取',
    },
    tooManyGuesses: '存取碼錯誤次數過多，請稍後再試',
    itemNotFound: '此檔案或資料夾已不在分享中',
    packFolder: '來自分享',
    titleMore: '{name} 等 {count} 個檔案',
    shareText: '{title}\n{url}',
    passCodeLine: '存取碼：{code}',
  },
}
