// hls.js publishes types for its full build only; the light build (no subtitles, alternate audio
// or DRM, which the player does not use) has the same API.
declare module 'hls.js/light' {
  import Hls from 'hls.js'
  export default Hls
}
