import type { Messages } from '../shape'

export default {
  appName: 'Cumulus',
  tagline: '나의 클라우드 드라이브와 다운로더',
  nav: {
    home: '홈',
    thunder: '클라우드 다운로드',
    guide: '가이드',
    about: '소개',
    signIn: '로그인',
    account: '내 계정',
    skipToContent: '본문으로 건너뛰기',
    primary: '주 메뉴',
    openMenu: '메뉴 열기',
  },
  language: {
    label: '언어',
    changeTo: '언어 변경: ',
  },
  colorMode: {
    label: '테마',
    change: '테마 변경',
    light: '라이트',
    dark: '다크',
    system: '시스템',
    forced: '이 페이지는 {{mode}} 테마로 표시됩니다',
  },
  footer: {
    rights: '© {{year}} Cumulus. 직접 호스팅하는 열린 서비스.',
    links: '바닥글',
  },
  errorPage: {
    notFoundTitle: '페이지를 찾을 수 없음',
    notFoundMessage: '페이지를 찾을 수 없습니다: {{path}}',
    internalTitle: '내부 서버 오류',
    internalMessage: '서버에 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
    backHome: '홈으로 돌아가기',
    status: '오류 {{status}}',
  },
  errors: {
    captchaClosed: '보안 확인 창이 닫혔습니다. 계속하려면 보안 확인을 완료하세요.',
  },
  loading: '불러오는 중…',
  close: '닫기',
  cancel: '취소',
  password: {
    show: '비밀번호 표시',
    hide: '비밀번호 숨기기',
  },
  notYetAvailable: '이후 릴리스에서 제공됩니다',
} satisfies Messages['common']
