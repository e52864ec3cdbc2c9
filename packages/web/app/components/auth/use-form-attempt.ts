import { useEffect, useRef, useState } from 'react'

/**
 * Pattern errors appear once the user has tried to submit (not while they type the first
 * time), and each failed attempt moves focus to the first invalid field, so keyboard and
 * screen-reader users land on the problem.
 */
export function useFormAttempt() {
  const formRef = useRef<HTMLFormElement>(null)
  const [attempts, setAttempts] = useState(0)
  useEffect(() => {
    if (attempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [attempts])
  return {
    formRef,
    /** Whether pattern errors should show. */
    attempted: attempts > 0,
    /** Records a submit attempt; pass whether the values were valid. */
    attempt(valid: boolean) {
      setAttempts((n) => (valid ? Math.max(n, 1) : n + 1))
    },
  }
}
