import type { FastifyRequest } from 'fastify';
import { LOCALE_COOKIE, type Locale, negotiateLocale } from '../../contract/locale.ts';

export const requestLocale = (request: Pick<FastifyRequest, 'cookies' | 'headers'>): Locale =>
  negotiateLocale(request.cookies[LOCALE_COOKIE], request.headers['accept-language']);
