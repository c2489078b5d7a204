/**
 * The functions that are not HTTP routes: consumers of the table's DynamoDB stream and scheduled
 * sweeps. Like the route table, this one list drives the CDK stack (event source mappings, EventBridge
 * schedules) and the local runtime (its stream poller and timers).
 */
export interface StreamConsumer {
  name: string;
  /** Project-relative handler module exporting `handler(event: DynamoDBStreamEvent)`. */
  handler: string;
  /**
   * Event-source filter patterns (Lambda filter criteria, as JSON objects); a record reaches the
   * consumer when it matches any of them. The local poller applies the same patterns.
   */
  filters: Record<string, unknown>[];
  batchSize?: number;
}

export interface Schedule {
  name: string;
  /** Project-relative handler module exporting `handler(event: ScheduledEvent)`. */
  handler: string;
  /** Every this many seconds (EventBridge `rate(...)`, at least 60). */
  everySeconds?: number;
  /** Or a daily time in the company's timezone, `HH:MM` (an EventBridge Scheduler cron with a timezone). */
  dailyAt?: string;
}

export const streamConsumers: StreamConsumer[] = [];

export const schedules: Schedule[] = [];
