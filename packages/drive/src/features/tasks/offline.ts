import { AppError, GenericErrors } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'

/** POST /drive/v1/files with UPLOAD_TYPE_URL. (Being built: the tasks feature replaces this.) */
export async function createOfflineTask(_deps: DriveDeps, _caller: Caller, _body: Record<string, unknown>): Promise<never> {
  throw new AppError(GenericErrors.unimplemented, { description: 'offline downloads are not available yet' })
}
