import { execFile } from 'node:child_process'

/**
 * External tools the drive runs (ffmpeg, ffprobe; decision 025, 026). A missing tool is the
 * installation's problem, not the content's: what it would have made is not remembered as
 * impossible, so it is made once the operator installs the tool.
 */
export class ToolMissing extends Error {
  override readonly name = 'ToolMissing'
  constructor(readonly tool: string) {
    super(`${tool} is not installed (or not on PATH)`)
  }
}

/** The first line of `<tool> -version`, or null when it cannot be run. Never throws. */
export function toolVersion(path: string, timeoutMs = 5000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ['-version'], { timeout: timeoutMs }, (error, stdout) => resolve(error ? null : (String(stdout).split('\n')[0]?.trim() ?? '')))
  })
}
