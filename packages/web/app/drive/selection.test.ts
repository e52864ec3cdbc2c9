// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { clickItem, EMPTY_SELECTION, headerCheckState, keyDown, menuTargetIds, reconcile, selectForMenu, type SelectionState, toggleItem } from './selection'

const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'] as const
const ids = [...IDS]

const sel = (selected: string[], anchor: string | null, focus: string | null): SelectionState => ({ selected: new Set(selected), anchor, focus })
const selected = (state: SelectionState | null) => (state ? [...state.selected].sort() : null)

describe('clicks', () => {
  it('a plain click selects only that item and makes it the anchor and focus', () => {
    const state = clickItem(sel(['a', 'b'], 'a', 'b'), ids, 3)
    expect(state).toEqual(sel(['d'], 'd', 'd'))
  })

  it('Ctrl/Cmd+click adds and removes one item, keeping the others', () => {
    let state = clickItem(EMPTY_SELECTION, ids, 1)
    state = clickItem(state, ids, 4, { toggle: true })
    expect(selected(state)).toEqual(['b', 'e'])
    state = clickItem(state, ids, 1, { toggle: true })
    expect(selected(state)).toEqual(['e'])
    expect(state.anchor).toBe('b')
  })

  it('Shift+click selects the range from the anchor, in either direction, replacing the selection', () => {
    let state = clickItem(EMPTY_SELECTION, ids, 2)
    state = clickItem(state, ids, 5, { range: true })
    expect(selected(state)).toEqual(['c', 'd', 'e', 'f'])
    // The anchor stays where the range started: a second Shift+click re-draws the range from it.
    state = clickItem(state, ids, 0, { range: true })
    expect(selected(state)).toEqual(['a', 'b', 'c'])
    expect(state.anchor).toBe('c')
    expect(state.focus).toBe('a')
  })

  it('Ctrl+Shift+click adds the range to what is already selected', () => {
    let state = clickItem(EMPTY_SELECTION, ids, 0)
    state = clickItem(state, ids, 4, { toggle: true })
    state = clickItem(state, ids, 6, { range: true, toggle: true })
    expect(selected(state)).toEqual(['a', 'e', 'f', 'g'])
  })

  it('Shift+click with no anchor yet selects just the clicked item and anchors there', () => {
    const state = clickItem(EMPTY_SELECTION, ids, 3, { range: true })
    expect(state).toEqual(sel(['d'], 'd', 'd'))
  })

  it('the anchor is an id: a new item inserted above does not move the range start', () => {
    const before = clickItem(EMPTY_SELECTION, ids, 2)
    const grown = ['new', ...ids]
    const state = clickItem(before, grown, 5, { range: true })
    expect(selected(state)).toEqual(['c', 'd', 'e'])
  })

  it('toggleItem (the row checkbox) flips one item', () => {
    const state = toggleItem(sel(['a'], 'a', 'a'), ids, 2)
    expect(selected(state)).toEqual(['a', 'c'])
  })
})

describe('keys', () => {
  it('arrows move the focus and select the focused item alone', () => {
    let state = keyDown(EMPTY_SELECTION, ids, { key: 'ArrowDown' })!
    expect(state).toEqual(sel(['a'], 'a', 'a'))
    state = keyDown(state, ids, { key: 'ArrowDown' })!
    state = keyDown(state, ids, { key: 'ArrowDown' })!
    expect(state).toEqual(sel(['c'], 'c', 'c'))
    state = keyDown(state, ids, { key: 'ArrowUp' })!
    expect(state).toEqual(sel(['b'], 'b', 'b'))
  })

  it('stops at both ends', () => {
    expect(keyDown(sel(['a'], 'a', 'a'), ids, { key: 'ArrowUp' })!.focus).toBe('a')
    expect(keyDown(sel(['g'], 'g', 'g'), ids, { key: 'ArrowDown' })!.focus).toBe('g')
  })

  it('Shift+arrows extend the range from the anchor and shrink it when going back', () => {
    let state = sel(['c'], 'c', 'c')
    state = keyDown(state, ids, { key: 'ArrowDown', shift: true })!
    state = keyDown(state, ids, { key: 'ArrowDown', shift: true })!
    expect(selected(state)).toEqual(['c', 'd', 'e'])
    state = keyDown(state, ids, { key: 'ArrowUp', shift: true })!
    expect(selected(state)).toEqual(['c', 'd'])
    state = keyDown(state, ids, { key: 'ArrowUp', shift: true })!
    state = keyDown(state, ids, { key: 'ArrowUp', shift: true })!
    expect(selected(state)).toEqual(['b', 'c'])
    expect(state.anchor).toBe('c')
  })

  it('Ctrl+arrows move the focus only; Space then toggles the focused item', () => {
    let state = sel(['a'], 'a', 'a')
    state = keyDown(state, ids, { key: 'ArrowDown', ctrl: true })!
    state = keyDown(state, ids, { key: 'ArrowDown', ctrl: true })!
    expect(state.focus).toBe('c')
    expect(selected(state)).toEqual(['a'])
    state = keyDown(state, ids, { key: ' ', ctrl: true })!
    expect(selected(state)).toEqual(['a', 'c'])
    state = keyDown(state, ids, { key: ' ' })!
    expect(selected(state)).toEqual(['a'])
  })

  it('Shift+Space selects the range from the anchor to the focus', () => {
    let state = sel(['b'], 'b', 'b')
    state = keyDown(state, ids, { key: 'ArrowDown', ctrl: true })!
    state = keyDown(state, ids, { key: 'ArrowDown', ctrl: true })!
    state = keyDown(state, ids, { key: ' ', shift: true })!
    expect(selected(state)).toEqual(['b', 'c', 'd'])
  })

  it('Home, End, PageDown and PageUp jump (by the page size given)', () => {
    let state = keyDown(sel(['c'], 'c', 'c'), ids, { key: 'End' })!
    expect(state.focus).toBe('g')
    state = keyDown(state, ids, { key: 'Home' })!
    expect(state.focus).toBe('a')
    state = keyDown(state, ids, { key: 'PageDown', pageRows: 3 })!
    expect(state.focus).toBe('d')
    state = keyDown(state, ids, { key: 'PageDown', pageRows: 30 })!
    expect(state.focus).toBe('g')
    state = keyDown(state, ids, { key: 'PageUp', pageRows: 4 })!
    expect(state.focus).toBe('c')
    state = keyDown(state, ids, { key: 'End', shift: true })!
    expect(selected(state)).toEqual(['c', 'd', 'e', 'f', 'g'])
  })

  it('Ctrl+A selects everything and keeps the focus; Escape clears, and is not handled when nothing is selected', () => {
    const all = keyDown(sel(['b'], 'b', 'b'), ids, { key: 'a', ctrl: true })!
    expect(selected(all)).toEqual(ids)
    expect(all.focus).toBe('b')
    const cleared = keyDown(all, ids, { key: 'Escape' })!
    expect(selected(cleared)).toEqual([])
    expect(cleared.focus).toBe('b')
    expect(keyDown(cleared, ids, { key: 'Escape' })).toBeNull()
  })

  it('leaves other keys to the page (Enter, Delete, letters)', () => {
    for (const key of ['Enter', 'Delete', 'F2', 'x', 'a']) expect(keyDown(sel(['a'], 'a', 'a'), ids, { key })).toBeNull()
  })

  it('on an empty list the navigation keys do nothing but are still handled', () => {
    expect(keyDown(EMPTY_SELECTION, [], { key: 'ArrowDown' })).toBe(EMPTY_SELECTION)
    expect(keyDown(EMPTY_SELECTION, [], { key: 'Enter' })).toBeNull()
  })
})

describe('reconcile', () => {
  it('drops ids that left the list and moves a lost focus to the item now at its place', () => {
    const state = sel(['b', 'c', 'e'], 'b', 'c')
    const after = reconcile(state, ids, ['a', 'd', 'e', 'f', 'g'])
    expect(selected(after)).toEqual(['e'])
    // c was third (index 2); the item now third is e.
    expect(after.focus).toBe('e')
    expect(after.anchor).toBe('e')
  })

  it('returns the same state when nothing it holds has gone (a new page arrived)', () => {
    const state = sel(['b'], 'b', 'b')
    expect(reconcile(state, ids, [...ids, 'h', 'i'])).toBe(state)
  })

  it('clears the focus when the list became empty', () => {
    expect(reconcile(sel(['a'], 'a', 'a'), ids, []).focus).toBeNull()
  })
})

describe('a row menu and the header checkbox', () => {
  const ids = ['a', 'b', 'c', 'd']
  const two: SelectionState = { selected: new Set(['a', 'b']), anchor: 'a', focus: 'b' }

  it('a menu on a selected row keeps the selection and acts on all of it, in list order', () => {
    const next = selectForMenu(two, ids, 0)
    expect([...next.selected]).toEqual(['a', 'b'])
    expect(next.focus).toBe('a')
    expect(menuTargetIds(next, ids, 'a')).toEqual(['a', 'b'])
    expect(menuTargetIds(two, ['b', 'a', 'c'], 'b')).toEqual(['b', 'a'])
  })

  it('a menu on a row outside the selection makes that row the selection and acts on it alone', () => {
    const next = selectForMenu(two, ids, 2)
    expect(next).toEqual({ selected: new Set(['c']), anchor: 'c', focus: 'c' })
    expect(menuTargetIds(next, ids, 'c')).toEqual(['c'])
  })

  it('the header checkbox is derived from the rows present: none, some, all', () => {
    expect(headerCheckState(EMPTY_SELECTION, ids)).toBe('none')
    expect(headerCheckState(two, ids)).toBe('some')
    expect(headerCheckState(two, ['a', 'b'])).toBe('all')
    // Selected ids that left the list do not count.
    expect(headerCheckState(two, ['c', 'd'])).toBe('none')
    expect(headerCheckState(two, [])).toBe('none')
  })
})
