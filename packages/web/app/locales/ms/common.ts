import type { Messages } from '../shape'

export default {
  appName: 'Cumulus',
  tagline: 'Pemacu awan dan pemuat turun anda',
  nav: {
    home: 'Laman utama',
    thunder: 'Muat turun awan',
    guide: 'Panduan',
    about: 'Perihal',
    signIn: 'Log masuk',
    account: 'Akaun saya',
    skipToContent: 'Langkau ke kandungan',
    primary: 'Utama',
    openMenu: 'Buka menu',
  },
  language: {
    label: 'Bahasa',
    changeTo: 'Tukar bahasa: ',
  },
  colorMode: {
    label: 'Tema',
    change: 'Tukar tema',
    light: 'Cerah',
    dark: 'Gelap',
    system: 'Sistem',
    forced: 'Halaman ini dipaparkan dalam tema {{mode}}',
  },
  footer: {
    rights: '© {{year}} Cumulus. Dihos sendiri dan terbuka.',
    links: 'Pengaki',
  },
  errorPage: {
    notFoundTitle: 'Halaman Tidak Ditemui',
    notFoundMessage: 'Halaman tidak ditemui: {{path}}',
    internalTitle: 'Ralat Pelayan Dalaman',
    internalMessage: 'Berlaku masalah di pihak kami. Sila cuba lagi sebentar nanti.',
    backHome: 'Kembali ke laman utama',
    status: 'Ralat {{status}}',
  },
  errors: {
    captchaClosed: 'Semakan keselamatan telah ditutup. Lengkapkan semakan untuk meneruskan.',
  },
  loading: 'Memuatkan…',
  close: 'Tutup',
  cancel: 'Batal',
  password: {
    show: 'Tunjukkan kata laluan',
    hide: 'Sembunyikan kata laluan',
  },
  notYetAvailable: 'Akan hadir dalam keluaran akan datang',
} satisfies Messages['common']
