import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The rule in domain/index.ts: features share code only through domain/, never import each other,
// and domain/ never imports a feature.
const src = resolve(fileURLToPath(new URL('.', import.meta.url)), '..')
const IMPORT = /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Each relative import of the files under `dir`, as a path from src/ ("features/files/files.js"). */
function importsUnder(dir: string): { from: string; to: string }[] {
  return sourceFiles(join(src, dir)).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => ({
      from: relative(src, file).split(sep).join('/'),
      to: relative(src, resolve(file, '..', m[1] as string)).split(sep).join('/'),
    })),
  )
}

describe('drive module boundaries', () => {
  it('lets a feature import only its own folder, never another feature', () => {
    const crossing = importsUnder('features').filter(({ from, to }) => to.startsWith('features/') && to.split('/')[1] !== from.split('/')[1])
    expect(crossing).toEqual([])
  })

  it('keeps the shared domain free of features', () => {
    expect(importsUnder('domain').filter(({ to }) => to.startsWith('features/'))).toEqual([])
  })
})
