import { useEffect, useState } from 'react'
import { DEFAULT_ORDER, type ListingOrder } from './listing'

/** Where the chosen sort is remembered between visits. */
const ORDER_KEY = 'cumulus-drive-order'

/**
 * The list's sort order, remembered in localStorage. The first render uses the default (the
 * server renders without storage), the stored order follows right after hydration.
 */
export function useRememberedOrder(): [ListingOrder, (order: ListingOrder) => void] {
  const [order, setOrder] = useState<ListingOrder>(DEFAULT_ORDER)
  useEffect(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(ORDER_KEY) ?? 'null') as ListingOrder | null
      if (stored && ['name', 'size', 'modified_time'].includes(stored.field) && ['asc', 'desc'].includes(stored.direction)) setOrder({ field: stored.field, direction: stored.direction })
    } catch {
      // Unreadable or blocked storage: the default order.
    }
  }, [])
  return [
    order,
    (next) => {
      setOrder(next)
      try {
        localStorage.setItem(ORDER_KEY, JSON.stringify(next))
      } catch {
        // Not remembered; the order still applies now.
      }
    },
  ]
}
