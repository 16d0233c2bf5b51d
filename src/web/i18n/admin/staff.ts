import type { AdminTexts } from './texts.ts';

/** Back-office texts for staff, roles and two-step sign-in, each in English and Russian. */
export const staff = {
  'admin-two-factor': { en: 'Two-step sign-in', ru: 'Двухэтапный вход' },
  'admin-two-factor-required': {
    en: 'Admins turn on two-step sign-in before using the back office.',
    ru: 'Администраторы включают двухэтапный вход, прежде чем работать в админке.',
  },
  'admin-two-factor-on': {
    en: 'Two-step sign-in is on: after the password, sign-in asks for a code from your authenticator app.',
    ru: 'Двухэтапный вход включён: после пароля вход спрашивает код из приложения-аутентификатора.',
  },
  'admin-two-factor-off': {
    en: 'Two-step sign-in is off. Turn it on to ask for a code from an authenticator app after the password.',
    ru: 'Двухэтапный вход выключен. Включите его, чтобы после пароля вход спрашивал код из приложения-аутентификатора.',
  },
  'admin-two-factor-start': { en: 'Turn on two-step sign-in', ru: 'Включить двухэтапный вход' },
  'admin-two-factor-scan': {
    en: 'Scan the QR code with an authenticator app, or enter the key by hand, then type the code it shows.',
    ru: 'Отсканируйте QR-код приложением-аутентификатором или введите ключ вручную, затем наберите код, который оно показывает.',
  },
  'admin-two-factor-key': { en: 'Key', ru: 'Ключ' },
  'admin-two-factor-code': { en: 'Code from the app', ru: 'Код из приложения' },
  'admin-two-factor-confirm': { en: 'Confirm and turn on', ru: 'Подтвердить и включить' },
  'admin-two-factor-done': { en: 'Two-step sign-in is on.', ru: 'Двухэтапный вход включён.' },
  'admin-two-factor-recovery': {
    en: 'Recovery codes: each works once instead of a code from the app, for a lost phone. Keep them somewhere safe; they are shown only now.',
    ru: 'Коды восстановления: каждый срабатывает один раз вместо кода из приложения, если телефон потерян. Сохраните их в надёжном месте: они показаны только сейчас.',
  },
  'admin-staff': { en: 'Staff', ru: 'Сотрудники' },
  'admin-staff-invite': { en: 'Invite a staff member', ru: 'Пригласить сотрудника' },
  'admin-staff-send-invite': { en: 'Send the invitation', ru: 'Отправить приглашение' },
  'admin-staff-invited': {
    en: 'An invitation has been sent to {email}. Nothing changes for that address until its owner accepts it.',
    ru: 'Приглашение отправлено на {email}. Пока владелец адреса его не примет, ничего не меняется.',
  },
  'admin-staff-list': { en: 'Staff members', ru: 'Сотрудники магазина' },
  'admin-staff-roles-hint': {
    en: 'A manager runs the catalogue, orders and customers; an administrator can also delete data and manage staff.',
    ru: 'Менеджер ведёт каталог, заказы и покупателей; администратор также может удалять данные и управлять сотрудниками.',
  },
  'admin-staff-invitation-pending': { en: 'invitation not accepted yet', ru: 'приглашение ещё не принято' },
  'admin-staff-invitations': {
    en: 'Invitations waiting to be accepted',
    ru: 'Приглашения, которые ещё не приняты',
  },
  'admin-staff-invited-by': { en: 'Invited by', ru: 'Кто пригласил' },
  'admin-staff-invitation-expires': { en: 'Link works until', ru: 'Ссылка действует до' },
  'admin-staff-revoke': { en: 'Revoke', ru: 'Отозвать' },
  'admin-staff-revoke-confirm': {
    en: 'Revoke the invitation to {email}? Its link will stop working.',
    ru: 'Отозвать приглашение для {email}? Ссылка перестанет работать.',
  },
  'admin-staff-revoked': {
    en: 'The invitation to {email} is revoked.',
    ru: 'Приглашение для {email} отозвано.',
  },
  'admin-staff-role-confirm': {
    en: 'Change the role of {email} to “{role}”?',
    ru: 'Изменить роль {email} на «{role}»?',
  },
  'admin-staff-role-changed': { en: '{email} is now: {role}.', ru: '{email} теперь: {role}.' },
  'admin-staff-admin-only': {
    en: 'Only an administrator invites staff and changes roles. You can run the catalogue, orders and customers; to add a colleague or change a role, ask an administrator.',
    ru: 'Приглашать сотрудников и менять роли может только администратор. Вы ведёте каталог, заказы и покупателей; чтобы добавить коллегу или изменить роль, обратитесь к администратору.',
  },
  'admin-role': { en: 'Role', ru: 'Роль' },
  'admin-role-of': { en: 'Role of {email}', ru: 'Роль {email}' },
  'admin-role-manager': { en: 'Manager', ru: 'Менеджер' },
  'admin-role-admin': { en: 'Administrator', ru: 'Администратор' },
  'admin-role-customer': { en: 'Not staff (customer)', ru: 'Не сотрудник (покупатель)' },
} satisfies AdminTexts;
