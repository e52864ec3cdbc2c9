import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../../test/render'
import { PhoneField } from './phone-field'

function Controlled({ onChange, initial = '' }: { onChange(e164: string): void; initial?: string }) {
  const [value, setValue] = useState(initial)
  return (
    <>
      <PhoneField
        label="Phone number"
        name="phone"
        value={value}
        onChange={(next) => {
          setValue(next)
          onChange(next)
        }}
      />
      <button type="button" onClick={() => setValue('')}>
        reset
      </button>
    </>
  )
}

describe('PhoneField', () => {
  it('starts on the page language’s country and produces E.164', async () => {
    const onChange = vi.fn()
    renderPage(<Controlled onChange={onChange} />, { locale: 'ms' })
    const country = screen.getByRole('combobox', { name: 'Negara atau wilayah' })
    expect((country as HTMLSelectElement).value).toBe('MY')
    await userEvent.type(screen.getByLabelText('Phone number'), '012-345 6789')
    expect(onChange).toHaveBeenLastCalledWith('+60123456789')
    expect(document.querySelector<HTMLInputElement>('input[name="phone"]')?.value).toBe('+60123456789')
  })

  it('changes the calling code with the country picker', async () => {
    const onChange = vi.fn()
    renderPage(<Controlled onChange={onChange} />)
    await userEvent.type(screen.getByLabelText('Phone number'), '91234567')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Country or region' }), 'SG')
    expect(onChange).toHaveBeenLastCalledWith('+6591234567')
    expect(screen.getByRole('option', { name: 'Singapore (+65)' })).toHaveProperty('selected', true)
  })

  it('moves to the country of a pasted international number', async () => {
    const onChange = vi.fn()
    renderPage(<Controlled onChange={onChange} />, { locale: 'zh-CN' })
    await userEvent.click(screen.getByLabelText('Phone number'))
    await userEvent.paste('+82 10-1234-5678')
    expect(onChange).toHaveBeenLastCalledWith('+821012345678')
    expect((screen.getByRole('combobox', { name: '国家或地区' }) as HTMLSelectElement).value).toBe('KR')
    expect(screen.getByRole('option', { name: '韩国（+82）' })).toBeDefined()
  })

  it('shows an initial value and clears when the value is reset from outside', async () => {
    renderPage(<Controlled onChange={() => {}} initial="+886912345678" />, { locale: 'en-US' })
    expect((screen.getByRole('combobox', { name: 'Country or region' }) as HTMLSelectElement).value).toBe('TW')
    expect(screen.getByLabelText('Phone number')).toHaveProperty('value', '912345678')
    await userEvent.click(screen.getByRole('button', { name: 'reset' }))
    expect(screen.getByLabelText('Phone number')).toHaveProperty('value', '')
  })

  it('wires an error to the number input', () => {
    renderPage(<PhoneField label="Phone number" value="" onChange={() => {}} error="Enter your phone number." />)
    const input = screen.getByLabelText('Phone number')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('Enter your phone number.')
  })
})
