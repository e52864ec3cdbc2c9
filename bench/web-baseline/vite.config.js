import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

// No Tailwind, no i18n, no colour mode: React Router's own plugin only.
export default defineConfig({
  plugins: [reactRouter()],
  logLevel: 'warn',
})
