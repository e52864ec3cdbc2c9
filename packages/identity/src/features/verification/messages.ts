import type { Locale, VerificationPurpose } from '@cumulus/protocol'

/** A verification code rendered for every channel: an e-mail (subject, text and HTML parts) and an SMS line. */
export interface VerificationMessage {
  subject: string
  text: string
  html: string
  /** One short line, no line breaks. */
  sms: string
}

export interface VerificationMessageInput {
  code: string
  productName: string
  /** Minutes until the code expires; shown rounded and never below 1. */
  minutes: number
  usage: VerificationPurpose
}

/** What the reader is doing; several wire purposes read the same to a person. */
type Purpose = 'signUp' | 'signIn' | 'signInOrUp' | 'passwordReset' | 'emailChange' | 'phoneChange' | 'generic'

const PURPOSE_OF: Readonly<Record<VerificationPurpose, Purpose>> = {
  REGISTER: 'signUp',
  SIGN_IN: 'signIn',
  REGISTER_SIGN_IN: 'signInOrUp',
  PASSWORD_RESET: 'passwordReset',
  EMAIL_ADDRESS_CHANGE: 'emailChange',
  PHONE_NUMBER_CHANGE: 'phoneChange',
  DEFAULT: 'generic',
  EMAIL_ADDRESS_VERIFICATION: 'generic',
  PHONE_NUMBER_VERIFICATION: 'generic',
}

interface LocaleTexts {
  /** Names the code for this purpose ("sign-up code"); used in the subject, heading and SMS. */
  label: Record<Purpose, string>
  subject(code: string, product: string, label: string): string
  heading(product: string, label: string): string
  /** The sentence that leads into the code, saying what it is for. */
  intro: Record<Purpose, (product: string) => string>
  expires(minutes: number): string
  ignore: string
  sms(code: string, product: string, label: string, minutes: number): string
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

const TEXTS: Readonly<Record<Locale, LocaleTexts>> = {
  'en-US': {
    label: {
      signUp: 'sign-up code',
      signIn: 'sign-in code',
      signInOrUp: 'sign-in code',
      passwordReset: 'password reset code',
      emailChange: 'email confirmation code',
      phoneChange: 'phone number confirmation code',
      generic: 'verification code',
    },
    subject: (code, product, label) => `${code} is your ${product} ${label}`,
    heading: (product, label) => `Your ${product} ${label}`,
    intro: {
      signUp: (p) => `Use this code to finish creating your ${p} account:`,
      signIn: (p) => `Use this code to sign in to ${p}:`,
      signInOrUp: (p) => `Use this code to sign in to ${p}. If you don't have an account yet, one will be created for you:`,
      passwordReset: (p) => `Use this code to reset your ${p} password:`,
      emailChange: (p) => `Use this code to confirm the new email address for your ${p} account:`,
      phoneChange: (p) => `Use this code to confirm the new phone number for your ${p} account:`,
      generic: (p) => `Use this code to verify your identity on ${p}:`,
    },
    expires: (m) => `This code expires in ${m} ${m === 1 ? 'minute' : 'minutes'}.`,
    ignore: "If you didn't ask for this code, you can safely ignore this message. Never share the code with anyone.",
    sms: (code, product, label, m) => `${code} is your ${product} ${label}. It expires in ${m} min. Don't share it with anyone.`,
  },
  id: {
    label: {
      signUp: 'kode pendaftaran',
      signIn: 'kode masuk',
      signInOrUp: 'kode masuk',
      passwordReset: 'kode atur ulang kata sandi',
      emailChange: 'kode konfirmasi email',
      phoneChange: 'kode konfirmasi nomor telepon',
      generic: 'kode verifikasi',
    },
    subject: (code, product, label) => `${code} adalah ${label} ${product} Anda`,
    heading: (product, label) => `${capitalize(label)} ${product} Anda`,
    intro: {
      signUp: (p) => `Gunakan kode ini untuk menyelesaikan pembuatan akun ${p} Anda:`,
      signIn: (p) => `Gunakan kode ini untuk masuk ke ${p}:`,
      signInOrUp: (p) => `Gunakan kode ini untuk masuk ke ${p}. Jika Anda belum memiliki akun, akun baru akan dibuatkan untuk Anda:`,
      passwordReset: (p) => `Gunakan kode ini untuk mengatur ulang kata sandi ${p} Anda:`,
      emailChange: (p) => `Gunakan kode ini untuk mengonfirmasi alamat email baru akun ${p} Anda:`,
      phoneChange: (p) => `Gunakan kode ini untuk mengonfirmasi nomor telepon baru akun ${p} Anda:`,
      generic: (p) => `Gunakan kode ini untuk memverifikasi identitas Anda di ${p}:`,
    },
    expires: (m) => `Kode ini kedaluwarsa dalam ${m} menit.`,
    ignore: 'Jika Anda tidak meminta kode ini, abaikan saja pesan ini. Jangan berikan kode ini kepada siapa pun.',
    sms: (code, product, label, m) => `${code} adalah ${label} ${product} Anda. Berlaku ${m} menit. Jangan berikan kepada siapa pun.`,
  },
  ko: {
    label: {
      signUp: '회원가입 인증 코드',
      signIn: '로그인 인증 코드',
      signInOrUp: '로그인 인증 코드',
      passwordReset: '비밀번호 재설정 인증 코드',
      emailChange: '이메일 주소 변경 인증 코드',
      phoneChange: '휴대폰 번호 변경 인증 코드',
      generic: '인증 코드',
    },
    subject: (code, product, label) => `[${product}] ${label}: ${code}`,
    heading: (product, label) => `${product} ${label}`,
    intro: {
      signUp: (p) => `${p} 회원가입을 완료하려면 아래 인증 코드를 입력하세요.`,
      signIn: (p) => `${p}에 로그인하려면 아래 인증 코드를 입력하세요.`,
      signInOrUp: (p) => `${p}에 로그인하려면 아래 인증 코드를 입력하세요. 계정이 없으면 새 계정이 만들어집니다.`,
      passwordReset: (p) => `${p} 비밀번호를 재설정하려면 아래 인증 코드를 입력하세요.`,
      emailChange: (p) => `${p} 계정의 새 이메일 주소를 확인하려면 아래 인증 코드를 입력하세요.`,
      phoneChange: (p) => `${p} 계정의 새 휴대폰 번호를 확인하려면 아래 인증 코드를 입력하세요.`,
      generic: (p) => `${p} 본인 확인을 위해 아래 인증 코드를 입력하세요.`,
    },
    expires: (m) => `이 코드는 ${m}분 후에 만료됩니다.`,
    ignore: '본인이 요청하지 않았다면 이 메시지를 무시하셔도 됩니다. 인증 코드를 다른 사람에게 알려주지 마세요.',
    sms: (code, product, label, m) => `[${product}] ${label}: ${code} (${m}분간 유효). 타인에게 알려주지 마세요.`,
  },
  ms: {
    label: {
      signUp: 'kod pendaftaran',
      signIn: 'kod log masuk',
      signInOrUp: 'kod log masuk',
      passwordReset: 'kod tetapan semula kata laluan',
      emailChange: 'kod pengesahan e-mel',
      phoneChange: 'kod pengesahan nombor telefon',
      generic: 'kod pengesahan',
    },
    subject: (code, product, label) => `${code} ialah ${label} ${product} anda`,
    heading: (product, label) => `${capitalize(label)} ${product} anda`,
    intro: {
      signUp: (p) => `Gunakan kod ini untuk melengkapkan pendaftaran akaun ${p} anda:`,
      signIn: (p) => `Gunakan kod ini untuk log masuk ke ${p}:`,
      signInOrUp: (p) => `Gunakan kod ini untuk log masuk ke ${p}. Jika anda belum mempunyai akaun, akaun baharu akan dibuat untuk anda:`,
      passwordReset: (p) => `Gunakan kod ini untuk menetapkan semula kata laluan ${p} anda:`,
      emailChange: (p) => `Gunakan kod ini untuk mengesahkan alamat e-mel baharu akaun ${p} anda:`,
      phoneChange: (p) => `Gunakan kod ini untuk mengesahkan nombor telefon baharu akaun ${p} anda:`,
      generic: (p) => `Gunakan kod ini untuk mengesahkan identiti anda di ${p}:`,
    },
    expires: (m) => `Kod ini akan tamat tempoh dalam ${m} minit.`,
    ignore: 'Jika anda tidak meminta kod ini, abaikan sahaja mesej ini. Jangan kongsi kod ini dengan sesiapa pun.',
    sms: (code, product, label, m) => `${code} ialah ${label} ${product} anda. Sah selama ${m} minit. Jangan kongsi dengan sesiapa.`,
  },
  'zh-CN': {
    label: {
      signUp: '注册验证码',
      signIn: '登录验证码',
      signInOrUp: '登录验证码',
      passwordReset: '重置密码验证码',
      emailChange: '更换邮箱验证码',
      phoneChange: '更换手机号验证码',
      generic: '验证码',
    },
    subject: (code, product, label) => `你的 ${product} ${label}：${code}`,
    heading: (product, label) => `你的 ${product} ${label}`,
    intro: {
      signUp: (p) => `你正在注册 ${p} 账号，请使用以下验证码完成注册：`,
      signIn: (p) => `你正在登录 ${p}，请使用以下验证码：`,
      signInOrUp: (p) => `你正在登录 ${p}（如果还没有账号，将自动为你创建），请使用以下验证码：`,
      passwordReset: (p) => `你正在重置 ${p} 账号的密码，请使用以下验证码：`,
      emailChange: (p) => `你正在为 ${p} 账号更换邮箱地址，请使用以下验证码确认新邮箱：`,
      phoneChange: (p) => `你正在为 ${p} 账号更换手机号，请使用以下验证码确认新手机号：`,
      generic: (p) => `你正在进行 ${p} 身份验证，请使用以下验证码：`,
    },
    expires: (m) => `验证码 ${m} 分钟内有效。`,
    ignore: '如果这不是你本人的操作，请忽略此消息。请勿将验证码告诉任何人。',
    sms: (code, product, label, m) => `【${product}】你的${label}是 ${code}，${m} 分钟内有效。如非本人操作，请忽略。`,
  },
  'zh-TW': {
    label: {
      signUp: '註冊驗證碼',
      signIn: '登入驗證碼',
      signInOrUp: '登入驗證碼',
      passwordReset: '重設密碼驗證碼',
      emailChange: '變更電子郵件驗證碼',
      phoneChange: '變更手機號碼驗證碼',
      generic: '驗證碼',
    },
    subject: (code, product, label) => `你的 ${product} ${label}：${code}`,
    heading: (product, label) => `你的 ${product} ${label}`,
    intro: {
      signUp: (p) => `你正在註冊 ${p} 帳號，請使用以下驗證碼完成註冊：`,
      signIn: (p) => `你正在登入 ${p}，請使用以下驗證碼：`,
      signInOrUp: (p) => `你正在登入 ${p}（若尚未擁有帳號，將自動為你建立），請使用以下驗證碼：`,
      passwordReset: (p) => `你正在重設 ${p} 帳號的密碼，請使用以下驗證碼：`,
      emailChange: (p) => `你正在為 ${p} 帳號變更電子郵件地址，請使用以下驗證碼確認新地址：`,
      phoneChange: (p) => `你正在為 ${p} 帳號變更手機號碼，請使用以下驗證碼確認新號碼：`,
      generic: (p) => `你正在進行 ${p} 身分驗證，請使用以下驗證碼：`,
    },
    expires: (m) => `驗證碼將於 ${m} 分鐘後失效。`,
    ignore: '如果這不是你本人的操作，請忽略此訊息。請勿將驗證碼提供給任何人。',
    sms: (code, product, label, m) => `【${product}】你的${label}為 ${code}，${m} 分鐘內有效。如非本人操作，請忽略。`,
  },
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)
}

// The product name is operator configuration and lands in a header and an SMS line;
// a stray line break there would split the subject or the one-line SMS.
function singleLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim()
}

/** The verification code message for `locale`, saying what the code is for and when it expires. */
export function verificationMessage(locale: Locale, input: VerificationMessageInput): VerificationMessage {
  const t = TEXTS[locale] ?? TEXTS['en-US']
  const purpose = PURPOSE_OF[input.usage] ?? 'generic'
  const product = singleLine(input.productName)
  const code = singleLine(input.code)
  const minutes = Math.max(1, Math.round(input.minutes))
  const label = t.label[purpose]

  const subject = t.subject(code, product, label)
  const heading = t.heading(product, label)
  const intro = t.intro[purpose](product)
  const expires = t.expires(minutes)

  const text = [heading, '', intro, '', `    ${code}`, '', expires, '', t.ignore, ''].join('\n')
  const html = renderHtml({ locale, subject, heading, intro, code, expires, ignore: t.ignore })
  return { subject, text, html, sms: t.sms(code, product, label, minutes) }
}

// Table layout and inline styles because many mail clients drop <style> blocks and ignore flexbox;
// role="presentation" keeps screen readers from announcing the layout table.
function renderHtml(parts: { locale: Locale; subject: string; heading: string; intro: string; code: string; expires: string; ignore: string }): string {
  const e = escapeHtml
  const font = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans','PingFang SC','Microsoft YaHei','Malgun Gothic',sans-serif"
  const mono = "'SFMono-Regular',Menlo,Consolas,'Liberation Mono','Courier New',monospace"
  return `<!DOCTYPE html>
<html lang="${e(parts.locale)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(parts.subject)}</title>
</head>
<body style="margin:0;padding:24px 12px;background-color:#f4f5f7;color:#1f2328;font-family:${font};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:480px;margin:0 auto;background-color:#ffffff;border-radius:8px;">
<tr><td style="padding:32px 28px;">
<h1 style="margin:0 0 16px;font-size:20px;line-height:28px;font-weight:600;color:#1f2328;">${e(parts.heading)}</h1>
<p style="margin:0 0 16px;font-size:15px;line-height:22px;">${e(parts.intro)}</p>
<p style="margin:0 0 16px;padding:16px;background-color:#f4f5f7;border-radius:6px;text-align:center;font-family:${mono};font-size:32px;line-height:40px;font-weight:700;letter-spacing:6px;color:#1f2328;">${e(parts.code)}</p>
<p style="margin:0 0 16px;font-size:15px;line-height:22px;">${e(parts.expires)}</p>
<p style="margin:0;font-size:13px;line-height:20px;color:#57606a;">${e(parts.ignore)}</p>
</td></tr>
</table>
</body>
</html>
`
}
