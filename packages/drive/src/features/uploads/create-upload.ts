import { AppError, GenericErrors } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'

/** POST /drive/v1/files for a resumable upload. (Being built: the tus upload feature replaces this.) */
export async function createUpload(_deps: DriveDeps, _caller: Caller, _body: Record<string, unknown>): Promise<never> {
  throw new AppError(GenericErrors.unimplemented, { description: 'uploads are not available yet' })
}
