import nodemailer from 'nodemailer'
import { afterEach, describe, expect, it } from 'vitest'
import { codeIn, parseMail, type SmtpSink, startSmtpSink } from './smtp-sink.js'

const crlf = (lines: string[]) => lines.join('\r\n')

describe('parseMail', () => {
  it('reads a plain 7bit message', () => {
    const raw = crlf(['From: a@x.test', 'To: b@x.test', 'Subject: Hello there', '', 'Line one', 'Line two', ''])
    expect(parseMail(raw)).toEqual({ subject: 'Hello there', text: 'Line one\r\nLine two' })
  })

  it('unfolds a folded plain subject', () => {
    const raw = crlf(['Subject: a subject that was', ' folded onto two lines', 'To: b@x.test', '', 'body'])
    expect(parseMail(raw).subject).toBe('a subject that was folded onto two lines')
  })

  it('decodes a quoted-printable body: escaped bytes, UTF-8 sequences and soft line breaks', () => {
    const raw = crlf([
      'Subject: qp',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Caf=C3=A9 costs 5=3D5 and this line is so long that it was wrapped with a s=',
      'oft break; =E4=BD=A0=E5=A5=BD',
    ])
    expect(parseMail(raw).text).toBe('Café costs 5=5 and this line is so long that it was wrapped with a soft break; 你好')
  })

  it('decodes a base64 body whose lines are wrapped', () => {
    const encoded = Buffer.from('验证码 123456，10 分钟内有效。').toString('base64')
    const raw = crlf(['Subject: b64', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', encoded.slice(0, 20), encoded.slice(20), ''])
    expect(parseMail(raw).text).toBe('验证码 123456，10 分钟内有效。')
  })

  it('decodes a body in a legacy charset', () => {
    const raw = crlf(['Subject: latin', 'Content-Type: text/plain; charset=iso-8859-1', 'Content-Transfer-Encoding: quoted-printable', '', 'Caf=E9'])
    expect(parseMail(raw).text).toBe('Café')
  })

  it('takes the text/plain part of a multipart/alternative message, wherever it sits', () => {
    const raw = crlf([
      'Subject: multi',
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative;',
      ' boundary="--b1"',
      '',
      'This is a preamble.',
      '----b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>html wins nothing</p>',
      '----b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'plain =E2=9C=93',
      '----b1--',
      'epilogue',
    ])
    expect(parseMail(raw)).toEqual({ subject: 'multi', text: 'plain ✓' })
  })

  it('finds the text part inside a nested multipart (mixed with an attachment)', () => {
    const raw = crlf([
      'Subject: nested',
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      '--outer',
      'Content-Type: multipart/alternative; boundary="inner"',
      '',
      '--inner',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('inner text').toString('base64'),
      '--inner',
      'Content-Type: text/html',
      '',
      '<p>inner</p>',
      '--inner--',
      '--outer',
      'Content-Type: application/octet-stream',
      'Content-Disposition: attachment; filename="a.bin"',
      'Content-Transfer-Encoding: base64',
      '',
      'AAAA',
      '--outer--',
    ])
    expect(parseMail(raw)).toEqual({ subject: 'nested', text: 'inner text' })
  })

  it('reads a body part without headers as text/plain (RFC 2046 5.1.1)', () => {
    const raw = crlf(['Subject: bare', 'Content-Type: multipart/mixed; boundary=b', '', '--b', '', 'bare part', '--b--'])
    expect(parseMail(raw)).toEqual({ subject: 'bare', text: 'bare part' })
  })

  it('gives empty text for a message without a text/plain part', () => {
    const raw = crlf(['Subject: html only', 'Content-Type: multipart/alternative; boundary=b', '', '--b', 'Content-Type: text/html', '', '<p>x</p>', '--b--'])
    expect(parseMail(raw)).toEqual({ subject: 'html only', text: '' })
  })

  describe('RFC 2047 subjects', () => {
    it('decodes a B-encoded word', () => {
      const raw = crlf([`Subject: =?UTF-8?B?${Buffer.from('你好，世界').toString('base64')}?=`, '', 'x'])
      expect(parseMail(raw).subject).toBe('你好，世界')
    })

    it('decodes a Q-encoded word, underscores as spaces', () => {
      const raw = crlf(['Subject: =?utf-8?Q?Caf=C3=A9_au_lait=5F?=', '', 'x'])
      expect(parseMail(raw).subject).toBe('Café au lait_')
    })

    it('drops the folding whitespace between adjacent encoded words but keeps it next to plain text', () => {
      const words = ['您的 Cumulus', ' 注册验证码', '：123456'].map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`)
      const raw = crlf([`Subject: Re: ${words[0]}`, ` ${words[1]}`, `\t${words[2]} (fwd)`, '', 'x'])
      expect(parseMail(raw).subject).toBe('Re: 您的 Cumulus 注册验证码：123456 (fwd)')
    })

    it('joins a character split across two encoded words', () => {
      const bytes = Buffer.from('验证')
      const raw = crlf([`Subject: =?UTF-8?B?${bytes.subarray(0, 2).toString('base64')}?= =?UTF-8?B?${bytes.subarray(2).toString('base64')}?=`, '', 'x'])
      expect(parseMail(raw).subject).toBe('验证')
    })

    it('decodes encoded words in other charsets', () => {
      const raw = crlf(['Subject: =?ISO-8859-1?Q?R=E9sum=E9?=', '', 'x'])
      expect(parseMail(raw).subject).toBe('Résumé')
    })
  })

  it('reads what nodemailer writes: a long Chinese subject folded into several words, and a base64 body', async () => {
    const subject = `您的 Cumulus 注册验证码：123456。${'这是一个很长的主题'.repeat(4)}`
    const text = `你好，世界！\n验证码 123456，10 分钟内有效。${'é'.repeat(40)}`
    const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
    const info = (await builder.sendMail({ from: 'a@x.test', to: 'b@x.test', subject, text, html: '<p>你好</p>' })) as unknown as { message: Buffer }
    const raw = info.message.toString('utf8')
    expect(raw).toMatch(/\?=\r\n =\?/)
    expect(parseMail(raw)).toEqual({ subject, text })
  })
})

describe('codeIn', () => {
  it('finds the first standalone 6-digit code, also next to CJK punctuation', () => {
    expect(codeIn('验证码：048213，10 分钟内有效')).toBe('048213')
    expect(codeIn('ref 1234567 then 654321')).toBe('654321')
  })

  it('throws when there is no code', () => {
    expect(() => codeIn('no code here 12345')).toThrow(/no 6-digit code/)
  })
})

describe('startSmtpSink', () => {
  let sink: SmtpSink | undefined

  afterEach(async () => {
    await sink?.close()
    sink = undefined
  })

  it('receives real SMTP mail and hands each message to next() once, by recipient', async () => {
    sink = await startSmtpSink()
    expect(sink.url).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/)
    const transport = nodemailer.createTransport(sink.url)
    try {
      const early = sink.next('Later@X.test')
      await transport.sendMail({ from: 'a@x.test', to: 'other@x.test', subject: 'first', text: 'one' })
      await transport.sendMail({ from: 'a@x.test', to: 'later@x.test', subject: '第二', text: '二' })
      expect(await early).toMatchObject({ from: 'a@x.test', to: ['later@x.test'], subject: '第二', text: '二' })
      const waiting = await sink.next('other@x.test')
      expect(waiting).toMatchObject({ subject: 'first', text: 'one' })
      expect(sink.messages).toHaveLength(2)
    } finally {
      transport.close()
    }
  })
})
