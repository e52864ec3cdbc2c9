import { useEffect, useRef, useState } from 'react'
import { dragHasFiles } from './collect-files'

/**
 * Files dragged over the page, anywhere: returns whether a drag with files is over the window,
 * and hands a drop to `onDrop`. The listeners stay for the page's life (re-adding them on each
 * render would lose count of nested drag-enters) and reach the latest `onDrop` through a ref.
 */
export function useFileDrop(enabled: boolean, onDrop: (transfer: DataTransfer) => void): boolean {
  const [dragging, setDragging] = useState(false)
  const latest = useRef(onDrop)
  latest.current = onDrop
  useEffect(() => {
    if (!enabled) return
    let depth = 0
    const enter = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return
      event.preventDefault()
      depth += 1
      setDragging(true)
    }
    const over = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return
      event.preventDefault()
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy'
    }
    const leave = () => {
      depth = Math.max(0, depth - 1)
      if (depth === 0) setDragging(false)
    }
    const drop = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer) || !event.dataTransfer) return
      event.preventDefault()
      depth = 0
      setDragging(false)
      latest.current(event.dataTransfer)
    }
    window.addEventListener('dragenter', enter)
    window.addEventListener('dragover', over)
    window.addEventListener('dragleave', leave)
    window.addEventListener('drop', drop)
    return () => {
      window.removeEventListener('dragenter', enter)
      window.removeEventListener('dragover', over)
      window.removeEventListener('dragleave', leave)
      window.removeEventListener('drop', drop)
      setDragging(false)
    }
  }, [enabled])
  return dragging
}
