import { PRODUCT_CSV_COLUMNS } from '../../../contract/admin.ts';
import type { Kopecks } from '../../../contract/money.ts';
import type { Executor } from '../../db/client.ts';
import { CSV_BOM, csvLine, csvRoubles } from '../../files/spreadsheet-csv.ts';
import { type Column, type CsvProduct, type CustomsColumn, hasOptions } from './columns.ts';
import { loadProducts, loadVariants } from './load.ts';

const flag = (value: boolean) => (value ? '1' : '0');
const money = (kopecks: Kopecks | null) => (kopecks === null ? '' : csvRoubles(kopecks));

/** The catalogue as CSV: one row per variant, a product's own columns on its first row (columns.ts). */
export async function exportProductsCsv(db: Executor): Promise<string> {
  const all = await loadProducts(db);
  const variants = await loadVariants(
    db,
    [...all.values()].map((entry) => entry.id),
  );
  const rows = [...all].flatMap(([link, { id, product }]) => {
    const list = variants.get(id) ?? [];
    const withOptions = hasOptions(list);
    return list.map((variant, index) =>
      PRODUCT_CSV_COLUMNS.map((column): string => {
        switch (column) {
          case 'sku':
            return variant.sku;
          case 'options':
            return variant.options;
          case 'variant_price':
            return money(variant.price);
          case 'variant_sale':
            return money(variant.sale);
          case 'variant_weight':
            return variant.weight === null ? '' : String(variant.weight);
          case 'variant_hs_code':
          case 'variant_origin_country':
          case 'variant_customs_description':
          case 'variant_net_weight':
            return String(variant.customs[column.slice('variant_'.length) as CustomsColumn] ?? '');
          case 'quantity':
          case 'quantity_seen':
            return String(withOptions ? variant.quantity : product.quantity);
          case 'link':
            return link;
        }
        return index === 0 ? productCell(column, id, product) : '';
      }),
    );
  });
  return CSV_BOM + csvLine(PRODUCT_CSV_COLUMNS) + rows.map((row) => csvLine(row)).join('');
}

type ProductColumn = Exclude<
  Column,
  'sku' | 'options' | `variant_${string}` | 'quantity' | 'quantity_seen' | 'link'
>;

function productCell(column: ProductColumn, id: number, product: CsvProduct): string {
  switch (column) {
    case 'id':
      return String(id);
    case 'categories':
    case 'images':
      return product[column].join('|');
    case 'price':
      return csvRoubles(product.price);
    case 'sale':
      return product.sale === null ? '' : csvRoubles(product.sale);
    case 'weight':
      return String(product[column]);
    case 'per_customer_limit':
    case 'net_weight':
    case 'box_length':
    case 'box_width':
    case 'box_height':
      return product[column] === null ? '' : String(product[column]);
    case 'hs_code':
    case 'origin_country':
    case 'customs_description':
      return product[column] ?? '';
    case 'visible':
    case 'week_sale':
    case 'envisioned':
      return flag(product[column]);
    default:
      return product[column];
  }
}

// ── Import ──────────────────────────────────────────────────────────────────────────────────────
