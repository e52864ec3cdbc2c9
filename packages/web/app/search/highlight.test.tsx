import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Highlighted, highlightSegments } from './highlight'

describe('highlightSegments', () => {
  it('cuts the name at the ranges, end exclusive', () => {
    expect(highlightSegments('Quarterly report.pdf', [[0, 2], [10, 13]])).toEqual([
      { text: 'Qu', marked: true },
      { text: 'arterly ', marked: false },
      { text: 'rep', marked: true },
      { text: 'ort.pdf', marked: false },
    ])
  })

  it('counts in UTF-16 code units, as the server does (a name with an emoji before the match)', () => {
    expect(highlightSegments('😀中国地图.png', [[2, 4]])).toEqual([
      { text: '😀', marked: false },
      { text: '中国', marked: true },
      { text: '地图.png', marked: false },
    ])
  })

  it('merges overlapping and touching ranges, clips those past the end and drops empty or reversed ones', () => {
    expect(highlightSegments('abcdef', [[3, 4], [0, 2], [1, 3], [5, 99], [4, 4], [2, 1], [-5, 0]])).toEqual([
      { text: 'abcd', marked: true },
      { text: 'e', marked: false },
      { text: 'f', marked: true },
    ])
  })

  it('keeps the whole name unmarked without ranges', () => {
    expect(highlightSegments('notes.txt', [])).toEqual([{ text: 'notes.txt', marked: false }])
  })
})

describe('Highlighted', () => {
  it('puts the matched pieces in <mark> and shows the name exactly once', () => {
    const { container } = render(<Highlighted text="中国地图.png" ranges={[[0, 2]]} />)
    expect(container.textContent).toBe('中国地图.png')
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['中国'])
  })
})
