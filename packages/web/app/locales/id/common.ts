import type { Messages } from '../shape'

export default {
  appName: 'Cumulus',
  tagline: 'Drive cloud dan pengunduh Anda',
  nav: {
    home: 'Beranda',
    thunder: 'Unduhan cloud',
    guide: 'Panduan',
    about: 'Tentang',
    signIn: 'Masuk',
    account: 'Akun saya',
    skipToContent: 'Langsung ke konten',
    primary: 'Utama',
    openMenu: 'Buka menu',
  },
  language: {
    label: 'Bahasa',
    changeTo: 'Ganti bahasa: ',
  },
  colorMode: {
    label: 'Tema',
    change: 'Ganti tema',
    light: 'Terang',
    dark: 'Gelap',
    system: 'Sistem',
    forced: 'Halaman ini ditampilkan dengan tema {{mode}}',
  },
  footer: {
    rights: '© {{year}} Cumulus. Di-host sendiri dan terbuka.',
    links: 'Kaki halaman',
  },
  errorPage: {
    notFoundTitle: 'Halaman Tidak Ditemukan',
    notFoundMessage: 'Halaman tidak ditemukan: {{path}}',
    internalTitle: 'Kesalahan Server Internal',
    internalMessage: 'Terjadi kesalahan di pihak kami. Silakan coba lagi sebentar lagi.',
    backHome: 'Kembali ke beranda',
    status: 'Kesalahan {{status}}',
  },
  errors: {
    captchaClosed: 'Pemeriksaan keamanan ditutup. Selesaikan pemeriksaan untuk melanjutkan.',
  },
  loading: 'Memuat…',
  close: 'Tutup',
  cancel: 'Batal',
  password: {
    show: 'Tampilkan kata sandi',
    hide: 'Sembunyikan kata sandi',
  },
  notYetAvailable: 'Hadir di rilis berikutnya',
} satisfies Messages['common']
