/** The VIP badge `vip_info.vip_icon` points at: a gold crown, drawn as SVG so it is sharp at any size. */
export function vipIconSvg(size: 'large' | 'small'): string {
  const px = size === 'large' ? 64 : 24
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 24 24" role="img" aria-label="VIP"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffd86b"/><stop offset="1" stop-color="#e0a100"/></linearGradient></defs><path fill="url(#g)" stroke="#a86f00" stroke-width=".8" d="M3 8l4.5 3.5L12 4l4.5 7.5L21 8l-2 10H5z"/><rect x="5" y="19" width="14" height="2" rx="1" fill="#a86f00"/></svg>`
}
