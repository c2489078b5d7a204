/** What a read meter counts: requests sent, and items read (scanned, batch-got or got). */
export interface ReadMeter {
  requests: number;
  items: number;
}

type MiddlewareStack = {
  add(mw: (next: any) => (args: any) => Promise<any>, opts: { step: 'initialize'; name: string }): void;
};

/**
 * Counts into `meter` every request a DynamoDB client (raw or document) sends through `stack`, and the
 * items each read: a Query's or Scan's `ScannedCount`, a BatchGet's responses, a GetItem's item.
 * Removed by name from the same stack.
 */
export function addReadMeter(stack: MiddlewareStack, meter: ReadMeter, name: string): void {
  stack.add(
    (next) => async (args: any) => {
      meter.requests++;
      const out: any = await next(args);
      const o = out.output ?? {};
      if (typeof o.ScannedCount === 'number') meter.items += o.ScannedCount;
      else if (o.Responses) for (const items of Object.values(o.Responses)) meter.items += (items as unknown[]).length;
      else if (o.Item) meter.items += 1;
      return out;
    },
    { step: 'initialize', name },
  );
}
