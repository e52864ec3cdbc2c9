import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FileName, splitName } from './file-name'

// Regression (issue 10): long names were cut at the end, so `Holiday … 2024-08-13 part 2.mp4` lost its extension.
describe('FileName', () => {
  it('keeps the extension and a few characters before it as the tail that never shrinks', () => {
    expect(splitName('A very long name of a holiday video part 2.mp4')).toEqual({ head: 'A very long name of a holiday video pa', tail: 'rt 2.mp4' })
    expect(splitName('archive.tar.gz')).toEqual({ head: 'archive', tail: '.tar.gz' })
    expect(splitName('README-without-an-extension')).toEqual({ head: 'README-without-an-ext', tail: 'ension' })
    expect(splitName('a.txt')).toEqual({ head: 'a.txt', tail: '' })
    // Characters as the eye counts them: an emoji is never cut in half.
    expect(splitName('家族の写真と旅行のビデオ😀😀😀😀.jpeg')).toEqual({ head: '家族の写真と旅行のビデオ', tail: '😀😀😀😀.jpeg' })
  })

  it('shows head and tail to the eye, and the whole name as the title and to assistive tech', () => {
    const name = 'A very long name of a holiday video part 2.mp4'
    render(<FileName name={name} />)
    const shown = screen.getByTestId('file-name')
    expect(shown.getAttribute('title')).toBe(name)
    expect(shown.querySelector('.text-ellipsis')?.textContent).toBe('A very long name of a holiday video pa')
    expect(shown.querySelector('.shrink-0')?.textContent).toBe('rt 2.mp4')
    expect(shown.querySelector('[aria-hidden="true"]')).not.toBeNull()
    expect(screen.getByText(name).className).toBe('sr-only')
  })
})
