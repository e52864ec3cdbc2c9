/** A write hit a unique constraint. `field` names the column when the backend says which. */
export class UniqueViolationError extends Error {
  constructor(readonly field: string | undefined, options?: { cause?: unknown }) {
    super(`unique constraint violated${field ? ` on ${field}` : ''}`, options)
    this.name = 'UniqueViolationError'
  }
}

/** Translates SQLite's and PostgreSQL's unique-violation errors; returns null for anything else. */
export function asUniqueViolation(error: unknown): UniqueViolationError | null {
  const e = error as { code?: string; message?: string; constraint?: string; detail?: string }
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const field = /\.(\w+)$/.exec(e.message ?? '')?.[1]
    return new UniqueViolationError(field, { cause: error })
  }
  if (e?.code === '23505') {
    const field = /\((\w+)\)=/.exec(e.detail ?? '')?.[1]
    return new UniqueViolationError(field, { cause: error })
  }
  return null
}

/** The row a write refers to is gone (SQLite's and PostgreSQL's foreign-key violations). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'
}
