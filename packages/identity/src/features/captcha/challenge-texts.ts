import type { Locale } from '@cumulus/protocol'

/** Everything the challenge page says, per shipped locale. `{percent}` is filled in by the page. */
export interface ChallengeTexts {
  title: string
  heading: string
  intro: string
  button: string
  working: string
  verified: string
  /** The challenge is expired, tampered with or already used: only a new one helps. */
  expired: string
  /** A network or server hiccup: the same challenge may be tried again. */
  failed: string
  noscript: string
}

export const CHALLENGE_TEXTS: Readonly<Record<Locale, ChallengeTexts>> = {
  'en-US': {
    title: 'Security check',
    heading: "Confirm you're human",
    intro: 'Your browser solves a short puzzle that keeps automated sign-ins out. It usually takes a few seconds.',
    button: "Verify I'm human",
    working: 'Checking… {percent}%',
    verified: 'Verified',
    expired: 'This check has expired. Close it and try again.',
    failed: 'Something went wrong. Check your connection and try again.',
    noscript: 'This check runs in your browser and needs JavaScript. Turn on JavaScript, then reload this page.',
  },
  id: {
    title: 'Pemeriksaan keamanan',
    heading: 'Pastikan Anda manusia',
    intro: 'Browser Anda menyelesaikan teka-teki singkat untuk mencegah proses masuk otomatis. Biasanya hanya perlu beberapa detik.',
    button: 'Verifikasi bahwa saya manusia',
    working: 'Memeriksa… {percent}%',
    verified: 'Terverifikasi',
    expired: 'Pemeriksaan ini sudah kedaluwarsa. Tutup lalu coba lagi.',
    failed: 'Terjadi kesalahan. Periksa koneksi Anda, lalu coba lagi.',
    noscript: 'Pemeriksaan ini berjalan di browser Anda dan memerlukan JavaScript. Aktifkan JavaScript, lalu muat ulang halaman ini.',
  },
  ko: {
    title: '보안 확인',
    heading: '사람인지 확인합니다',
    intro: '자동 로그인을 막기 위해 브라우저가 짧은 퍼즐을 풉니다. 보통 몇 초면 끝납니다.',
    button: '사람임을 확인하기',
    working: '확인 중… {percent}%',
    verified: '확인되었습니다',
    expired: '이 확인은 만료되었습니다. 창을 닫고 다시 시도하세요.',
    failed: '문제가 발생했습니다. 연결을 확인하고 다시 시도하세요.',
    noscript: '이 확인은 브라우저에서 실행되며 JavaScript가 필요합니다. JavaScript를 켠 다음 이 페이지를 새로 고치세요.',
  },
  ms: {
    title: 'Semakan keselamatan',
    heading: 'Sahkan anda manusia',
    intro: 'Pelayar anda menyelesaikan teka-teki ringkas untuk menghalang log masuk automatik. Biasanya ia mengambil masa beberapa saat.',
    button: 'Sahkan saya manusia',
    working: 'Menyemak… {percent}%',
    verified: 'Disahkan',
    expired: 'Semakan ini telah tamat tempoh. Tutup dan cuba lagi.',
    failed: 'Berlaku ralat. Semak sambungan anda dan cuba lagi.',
    noscript: 'Semakan ini berjalan dalam pelayar anda dan memerlukan JavaScript. Hidupkan JavaScript, kemudian muat semula halaman ini.',
  },
  'zh-CN': {
    title: '安全验证',
    heading: '确认你是真人',
    intro: '你的浏览器将完成一个简短的计算，以阻止自动登录。通常只需几秒钟。',
    button: '验证我是真人',
    working: '正在验证… {percent}%',
    verified: '验证成功',
    expired: '此验证已过期，请关闭后重试。',
    failed: '出现问题，请检查网络连接后重试。',
    noscript: '此验证在浏览器中运行，需要 JavaScript。请启用 JavaScript 后刷新本页。',
  },
  'zh-TW': {
    title: '安全驗證',
    heading: '確認你是真人',
    intro: '你的瀏覽器將完成一項簡短的運算，以阻擋自動登入。通常只需幾秒鐘。',
    button: '驗證我是真人',
    working: '正在驗證… {percent}%',
    verified: '驗證成功',
    expired: '此驗證已過期，請關閉後再試一次。',
    failed: '發生問題，請檢查網路連線後再試一次。',
    noscript: '此驗證在瀏覽器中執行，需要 JavaScript。請啟用 JavaScript 後重新整理此頁面。',
  },
}
