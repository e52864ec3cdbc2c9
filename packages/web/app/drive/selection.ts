/**
 * Selection in a file list, as desktop file managers do it: a click selects one item,
 * Ctrl/Cmd+click toggles one, Shift+click selects the range from the anchor (the last item
 * clicked without Shift), and the keyboard moves a focus that the selection follows unless Ctrl
 * is held. Pure functions over the ids in list order, so the list component stays thin and the
 * rules are tested without a DOM.
 *
 * The anchor and the focus are ids, not positions: items inserted above them (an upload that
 * finished, a new folder) must not move them to another item.
 */
export interface SelectionState {
  readonly selected: ReadonlySet<string>
  /** Where a Shift range starts; null before the first click. */
  readonly anchor: string | null
  /** The item the keyboard is on; null before the list has been touched. */
  readonly focus: string | null
}

export const EMPTY_SELECTION: SelectionState = Object.freeze({ selected: new Set<string>(), anchor: null, focus: null })

export interface PointerModifiers {
  /** Shift: select a range from the anchor. */
  range?: boolean
  /** Ctrl (Cmd on macOS): add or remove one item, or add a range to the selection. */
  toggle?: boolean
}

/** Items between two positions, both included, in list order. */
function rangeOf(ids: readonly string[], from: number, to: number): string[] {
  const [start, end] = from <= to ? [from, to] : [to, from]
  return ids.slice(start, end + 1)
}

/** A click (or tap) on the item at `index`. */
export function clickItem(state: SelectionState, ids: readonly string[], index: number, modifiers: PointerModifiers = {}): SelectionState {
  const id = ids[index]
  if (id === undefined) return state
  if (modifiers.range) {
    const anchorIndex = state.anchor === null ? -1 : ids.indexOf(state.anchor)
    const from = anchorIndex === -1 ? index : anchorIndex
    const range = rangeOf(ids, from, index)
    const selected = modifiers.toggle ? new Set([...state.selected, ...range]) : new Set(range)
    return { selected, anchor: anchorIndex === -1 ? id : state.anchor, focus: id }
  }
  if (modifiers.toggle) {
    const selected = new Set(state.selected)
    if (selected.has(id)) selected.delete(id)
    else selected.add(id)
    return { selected, anchor: id, focus: id }
  }
  return { selected: new Set([id]), anchor: id, focus: id }
}

/** Flips one item's selection (a row's checkbox): the others stay as they are. */
export function toggleItem(state: SelectionState, ids: readonly string[], index: number): SelectionState {
  return clickItem(state, ids, index, { toggle: true })
}

export interface KeyInput {
  key: string
  shift?: boolean
  /** Ctrl, or Cmd on macOS. */
  ctrl?: boolean
  /** Rows in one page of the viewport, for PageUp and PageDown. */
  pageRows?: number
}

/** Keys `keyDown` handles; the list stops their default action (scrolling, the browser's select-all). */
export const SELECTION_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp', ' '])

/**
 * A key pressed while the list has the focus. Returns null when the key is not a selection
 * key (Enter, Delete and the others are the page's), else the new state.
 *
 * - Arrows, Home, End, PageUp, PageDown move the focus and select only the focused item;
 *   with Shift they select the range from the anchor; with Ctrl they move the focus alone.
 * - Space toggles the focused item (with Shift: selects the range to it).
 * - Ctrl+A selects every item; Escape clears the selection (and is left to others when
 *   nothing is selected, so it can close what contains the list).
 */
export function keyDown(state: SelectionState, ids: readonly string[], input: KeyInput): SelectionState | null {
  const { key, shift = false, ctrl = false, pageRows = 10 } = input
  if (ctrl && (key === 'a' || key === 'A')) {
    return { selected: new Set(ids), anchor: state.anchor, focus: state.focus ?? ids[0] ?? null }
  }
  if (key === 'Escape') return state.selected.size === 0 ? null : { ...state, selected: new Set() }
  if (ids.length === 0) return SELECTION_KEYS.has(key) ? state : null

  const current = state.focus === null ? -1 : ids.indexOf(state.focus)
  if (key === ' ') {
    if (current === -1) return clickItem(state, ids, 0)
    return clickItem(state, ids, current, shift ? { range: true, toggle: ctrl } : { toggle: true })
  }

  const last = ids.length - 1
  let target: number
  switch (key) {
    case 'ArrowDown':
      target = current === -1 ? 0 : Math.min(last, current + 1)
      break
    case 'ArrowUp':
      target = current === -1 ? 0 : Math.max(0, current - 1)
      break
    case 'Home':
      target = 0
      break
    case 'End':
      target = last
      break
    case 'PageDown':
      target = Math.min(last, Math.max(current, 0) + pageRows)
      break
    case 'PageUp':
      target = Math.max(0, current - pageRows)
      break
    default:
      return null
  }
  const id = ids[target]!
  if (shift) return clickItem(state, ids, target, { range: true, toggle: ctrl })
  if (ctrl) return { ...state, focus: id }
  return { selected: new Set([id]), anchor: id, focus: id }
}

/**
 * The selection after the list changed (items trashed, moved away, or a new page): ids that
 * left the list are dropped; a focus that left moves to the item now at its old position.
 */
export function reconcile(state: SelectionState, previousIds: readonly string[], ids: readonly string[]): SelectionState {
  // Nothing to keep right (the usual case while pages of a long folder arrive): no work.
  if (previousIds === ids || (state.selected.size === 0 && state.focus === null && state.anchor === null)) return state
  const present = new Set(ids)
  let changed = false
  const selected = new Set<string>()
  for (const id of state.selected) {
    if (present.has(id)) selected.add(id)
    else changed = true
  }
  let focus = state.focus
  if (focus !== null && !present.has(focus)) {
    const old = previousIds.indexOf(focus)
    focus = ids.length === 0 ? null : (ids[Math.min(Math.max(old, 0), ids.length - 1)] ?? null)
    changed = true
  }
  const anchor = state.anchor !== null && !present.has(state.anchor) ? focus : state.anchor
  if (anchor !== state.anchor) changed = true
  return changed ? { selected, anchor, focus } : state
}

/**
 * The selection once a row's menu opens (its ⋮ button, a right-click, the context-menu key), as
 * Google Drive and Finder do it: a row that is part of the selection keeps the selection, and
 * the menu acts on all of it; a row outside the selection becomes the selection, alone, and the
 * menu acts on that row only. Never silently adds the row to the others.
 */
export function selectForMenu(state: SelectionState, ids: readonly string[], index: number): SelectionState {
  const id = ids[index]
  if (id === undefined) return state
  if (state.selected.has(id)) return state.focus === id ? state : { ...state, focus: id }
  return clickItem(state, ids, index)
}

/**
 * What a row's menu acts on, in list order: the whole selection when the row is part of it,
 * else the row alone (see `selectForMenu`).
 */
export function menuTargetIds(state: SelectionState, ids: readonly string[], id: string): string[] {
  if (!state.selected.has(id)) return [id]
  return ids.filter((each) => state.selected.has(each))
}

/**
 * The "select all" checkbox, derived from the rows the list has (never stored): checked when
 * every row is selected, mixed when some are, unchecked when none (or the list is empty).
 */
export function headerCheckState(state: SelectionState, ids: readonly string[]): 'all' | 'some' | 'none' {
  let count = 0
  for (const id of ids) if (state.selected.has(id)) count += 1
  if (count === 0) return 'none'
  return count === ids.length ? 'all' : 'some'
}
