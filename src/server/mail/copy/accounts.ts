import type { Templates } from '../mail-data.ts';
import { paragraph, strong } from '../render.ts';
import { hours } from '../wording.ts';

/** Mails about the reader's account: confirming the address, a new password, a staff invitation. */
export const accountMails: Templates<'verify-email' | 'reset-password' | 'account-exists' | 'staff-invite'> =
  {
    'verify-email': {
      ru: ({ link }) => ({
        subject: 'Подтвердите адрес электронной почты',
        blocks: [
          paragraph('Здравствуйте!'),
          paragraph(
            'Спасибо за регистрацию в магазине «Витрина». Чтобы активировать учётную запись, подтвердите адрес электронной почты.',
          ),
          { kind: 'button', label: 'Подтвердить адрес', href: link },
          { kind: 'note', text: 'Если вы не регистрировались у нас, просто проигнорируйте это письмо.' },
        ],
      }),
      en: ({ link }) => ({
        subject: 'Confirm your e-mail address',
        blocks: [
          paragraph('Hello!'),
          paragraph(
            'Thank you for signing up at Vitrina. To activate your account, please confirm your e-mail address.',
          ),
          { kind: 'button', label: 'Confirm e-mail', href: link },
          { kind: 'note', text: 'If you did not sign up, simply ignore this message.' },
        ],
      }),
    },

    'reset-password': {
      ru: ({ link, expiresInHours }) => ({
        subject: 'Восстановление пароля',
        blocks: [
          paragraph('Здравствуйте!'),
          paragraph(
            'Мы получили запрос на смену пароля от вашей учётной записи. Чтобы задать новый пароль, перейдите по ссылке.',
          ),
          { kind: 'button', label: 'Задать новый пароль', href: link },
          paragraph(
            'Ссылка действует ',
            strong(hours(expiresInHours, 'ru')),
            ' и сработает только один раз.',
          ),
          {
            kind: 'note',
            text: 'Если вы не запрашивали смену пароля, просто проигнорируйте это письмо: ваш пароль останется прежним.',
          },
        ],
      }),
      en: ({ link, expiresInHours }) => ({
        subject: 'Reset your password',
        blocks: [
          paragraph('Hello!'),
          paragraph(
            'We received a request to reset the password of your account. To choose a new one, follow the link.',
          ),
          { kind: 'button', label: 'Choose a new password', href: link },
          paragraph('The link is valid for ', strong(hours(expiresInHours, 'en')), ' and works only once.'),
          {
            kind: 'note',
            text: 'If you did not ask to reset your password, ignore this message: your password stays the same.',
          },
        ],
      }),
    },

    'account-exists': {
      ru: ({ signInLink, restoreLink }) => ({
        subject: 'Попытка регистрации с вашим адресом',
        blocks: [
          paragraph('Здравствуйте!'),
          paragraph(
            'Кто-то попытался зарегистрироваться в магазине с вашим адресом, но учётная запись с ним уже есть. Войдите в неё или, если не помните пароль, задайте новый.',
          ),
          { kind: 'button', label: 'Войти', href: signInLink },
          paragraph('Забыли пароль? Задайте новый:'),
          { kind: 'button', label: 'Восстановить пароль', href: restoreLink },
          {
            kind: 'note',
            text: 'Если это были не вы, просто проигнорируйте это письмо: ваша учётная запись не изменилась.',
          },
        ],
      }),
      en: ({ signInLink, restoreLink }) => ({
        subject: 'Someone tried to register with your address',
        blocks: [
          paragraph('Hello!'),
          paragraph(
            'Someone tried to register at the shop with your address, but it already has an account. Sign in to it or, if you do not remember the password, choose a new one.',
          ),
          { kind: 'button', label: 'Sign in', href: signInLink },
          paragraph('Forgot the password? Choose a new one:'),
          { kind: 'button', label: 'Reset the password', href: restoreLink },
          {
            kind: 'note',
            text: 'If it was not you, ignore this message: your account has not changed.',
          },
        ],
      }),
    },

    'staff-invite': {
      ru: ({ role, link, expiresInHours }) => ({
        subject: 'Приглашение в управление магазином',
        blocks: [
          paragraph('Здравствуйте!'),
          paragraph(
            'Вас пригласили в управление магазином с ролью ',
            strong(role === 'admin' ? 'администратор' : 'менеджер'),
            '. Пока вы не примете приглашение, ничего не меняется. Откройте ссылку и войдите с этим адресом (или зарегистрируйтесь с ним, если у вас ещё нет учётной записи в магазине).',
          ),
          { kind: 'button', label: 'Принять приглашение', href: link },
          paragraph(
            'Ссылка действует ',
            strong(hours(expiresInHours, 'ru')),
            ' и сработает только один раз.',
          ),
          { kind: 'note', text: 'Если вы не ждали этого письма, просто проигнорируйте его.' },
        ],
      }),
      en: ({ role, link, expiresInHours }) => ({
        subject: 'You are invited to run the shop',
        blocks: [
          paragraph('Hello!'),
          paragraph(
            'You have been invited to the shop’s back office as ',
            strong(role === 'admin' ? 'an administrator' : 'a manager'),
            '. Nothing changes until you accept: open the link and sign in with this address (or register with it if you have no account at the shop yet).',
          ),
          { kind: 'button', label: 'Accept the invitation', href: link },
          paragraph('The link is valid for ', strong(hours(expiresInHours, 'en')), ' and works only once.'),
          { kind: 'note', text: 'If you did not expect this mail, simply ignore it.' },
        ],
      }),
    },
  };
