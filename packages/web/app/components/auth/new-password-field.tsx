import { PATTERN_VALUES, type PatternMessageKey } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import { PasswordField } from '../ui/password-field'

/**
 * The "new password" field of sign-up and password reset: the rules as a hint, and the pattern
 * check's problem once the user has tried to submit.
 */
export function NewPasswordField({ value, onChange, problem, showProblem }: { value: string; onChange(value: string): void; problem: PatternMessageKey | null; showProblem: boolean }) {
  const { t } = useT()
  return (
    <PasswordField
      label={t('auth.fields.newPassword')}
      name="new-password"
      autoComplete="new-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      hint={t('auth.fields.passwordHint', PATTERN_VALUES)}
      error={showProblem && problem ? t(problem, PATTERN_VALUES) : null}
    />
  )
}
