import { doneResponse } from '../../contract/accounts.ts';
import { feedbackBody } from '../../contract/feedback.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';

export function feedbackRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      url: '/api/feedback',
      summary: "Send a message to the shop (multipart form, like the spec's page; JSON works too)",
      tags: ['feedback'],
      body: feedbackBody,
      response: doneResponse,
      handler: async ({ body, request }) => {
        await services.feedback.submit(body, {
          ip: request.ip,
          locale: body.locale ?? requestLocale(request),
        });
        return { success: true };
      },
    }),
  ];
}
