import { describe, expect, it } from 'vitest'
import { allErrors } from '../errors/catalogue.js'
import { LOCALES } from '../locales.js'
import { enUS } from './en-US.js'
import { id } from './id.js'
import { DOWNLOAD_FOLDER_NAMES, ERROR_MESSAGES } from './index.js'
import { ko } from './ko.js'
import { ms } from './ms.js'
import { zhCN } from './zh-CN.js'
import { zhTW } from './zh-TW.js'

const SPECIAL_KEYS = ['network_unreachable', 'captcha_reject', 'last_sign_in_method', 'default'] as const
const englishKeys = Object.keys(enUS).sort()
const tables = Object.entries(ERROR_MESSAGES)
const translated = { id, ko, ms, 'zh-CN': zhCN, 'zh-TW': zhTW }

describe('message tables', () => {
  it('ship one table per locale, each its own module', () => {
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...LOCALES].sort())
    expect(ERROR_MESSAGES['en-US']).toBe(enUS)
    for (const [locale, table] of Object.entries(translated)) {
      expect(ERROR_MESSAGES[locale as keyof typeof translated], locale).toBe(table)
      expect(table, locale).not.toBe(enUS)
    }
  })

  it('en-US has one text per catalogue reason plus the special keys, and nothing else', () => {
    const expected = [...allErrors().map((e) => e.reason), ...SPECIAL_KEYS].sort()
    expect(englishKeys).toEqual(expected)
  })

  it.each(tables)('%s has exactly the keys of en-US', (_locale, table) => {
    expect(Object.keys(table).sort()).toEqual(englishKeys)
  })

  it.each(tables)('%s has the special keys', (_locale, table) => {
    for (const key of SPECIAL_KEYS) expect(Object.hasOwn(table, key), key).toBe(true)
  })

  it.each(tables)('%s has no empty or padded texts', (_locale, table) => {
    for (const [key, text] of Object.entries(table)) {
      expect(typeof text, key).toBe('string')
      expect(text.trim(), key).not.toBe('')
      expect(text, key).toBe(text.trim())
    }
  })

  it.each(tables)('%s texts do not end with a full stop', (_locale, table) => {
    for (const [key, text] of Object.entries(table)) expect(text, key).not.toMatch(/[.。．]$/u)
  })

  it.each(['ko', 'zh-CN', 'zh-TW'] as const)('%s has translated every text', (locale) => {
    const table = ERROR_MESSAGES[locale]
    for (const key of englishKeys) {
      const text = table[key as keyof typeof table]
      expect(text, key).not.toBe(enUS[key as keyof typeof enUS])
      // A CJK text has CJK characters (Hangul or Han).
      expect(text, key).toMatch(locale === 'ko' ? /\p{Script=Hangul}/u : /\p{Script=Han}/u)
    }
  })

  it.each(['id', 'ms'] as const)('%s has translated the sentences', (locale) => {
    const table = ERROR_MESSAGES[locale]
    const same = englishKeys.filter((key) => table[key as keyof typeof table] === enUS[key as keyof typeof enUS])
    expect(same).toEqual([])
  })

  it('zh-CN uses the commercial service wording', () => {
    expect(zhCN.invalid_status).toBe('账号已锁定，请稍后再试')
    expect(zhCN.user_blocked).toBe('账号已锁定，请稍后再试')
    expect(zhCN.invalid_account_or_password).toBe('账号或密码错误，请重新输入')
    expect(zhCN.user_not_exist).toBe('账号或密码错误，请重新输入')
    expect(zhCN.expired_verification_code).toBe('验证码已过期')
    expect(zhCN.unauthenticated).toBe('请先登录')
    expect(zhCN.login_required).toBe('请先登录')
    expect(zhCN.captcha_reject).toBe('你的操作过于频繁，请稍后再试')
  })

  it('keeps texts that must not reveal a difference identical within each locale', () => {
    // Unknown user and wrong password give the same reply (identity.md), so the same text.
    for (const [locale, table] of tables) {
      expect(table.user_not_exist, locale).toBe(table.invalid_account_or_password)
      expect(table.unreachable, locale).toBe(table.network_unreachable)
    }
  })

  it('zh-TW is not a copy of zh-CN', () => {
    const same = englishKeys.filter((key) => zhTW[key as keyof typeof zhTW] === zhCN[key as keyof typeof zhCN])
    // A few short texts are written the same in both scripts; most are not.
    expect(same.length).toBeLessThan(englishKeys.length / 4)
  })
})

describe('download folder names', () => {
  it('name the folder in every locale, each a valid item name (no "/", at most 255 bytes)', () => {
    expect(Object.keys(DOWNLOAD_FOLDER_NAMES).sort()).toEqual([...LOCALES].sort())
    for (const name of Object.values(DOWNLOAD_FOLDER_NAMES)) {
      expect(name).toBe(name.normalize('NFC').trim())
      expect(name).not.toMatch(/[/\u0000-\u001f]/)
      expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255)
    }
  })
})
