// The benchmark's baseline (bench/web.mjs): the smallest React Router 7 framework-mode app with
// server rendering, one route. Built by bench/web.mjs into ./build (git-ignored).
export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
}
