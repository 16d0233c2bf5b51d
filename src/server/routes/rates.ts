import { manualRateInput } from '../../contract/admin.ts';
import { exchangeRateResponse } from '../../contract/admin-answers.ts';
import { defineRoute } from '../http/api.ts';
import { latestUsdRate, rateStatus, setManualUsdRate } from '../rates/service.ts';
import type { Services } from '../requests/services.ts';

/** The back office's dollar rate: the one in force and why dollars are withheld; a manager's own rate. */
export function rateRoutes(services: Services) {
  const { db, config } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  const status = async () => rateStatus(await latestUsdRate(db), config.rates.maxAgeDays, new Date());
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/exchange-rate',
      summary: 'The dollar rate in force, the day it is for, its source, and whether it is too old to use',
      response: exchangeRateResponse,
      handler: async () => ({ success: true, ...(await status()) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/exchange-rate',
      summary: 'Set the dollar rate by hand for today (recorded with who set it, audited)',
      body: manualRateInput,
      response: exchangeRateResponse,
      handler: async ({ body, staffId }) => {
        await setManualUsdRate(db, staffId, body.rate);
        await services.reloadUsdRate();
        return { success: true, ...(await status()) };
      },
    }),
  ];
}
