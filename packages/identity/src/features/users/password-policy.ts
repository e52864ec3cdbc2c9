import { AppError, GenericErrors, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@cumulus/protocol'

// argon2 takes any length, but the maximum stops megabyte passwords from being a cheap CPU attack.

/** Throws invalid_argument (field `password`) for a password we refuse to store. */
export function assertAcceptablePassword(password: string): void {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH || password.trim() === '') {
    throw new AppError(GenericErrors.invalid_argument, {
      description: `password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      metadata: { field: 'password' },
    })
  }
}
