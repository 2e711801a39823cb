/** Tables of spend governance (migration 0019). Money is integer micro-dollars; bigints may read as strings on PostgreSQL. */
type Big = number | string | bigint;

export interface UsageEventsTable {
  id: string;
  at: string;
  day: string;
  user_id: string | null;
  organization_id: string | null;
  model: string;
  engine: string;
  feature: string;
  conversation_id: string | null;
  run_id: string | null;
  /** the run step's agent, for run estimates */
  agent_id: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_micros: Big;
  duration_ms: number;
  outcome: string;
}

export interface UsageDailyTable {
  day: string;
  /** '' when the call had no user */
  user_id: string;
  /** '' when the call had no organization */
  organization_id: string;
  model: string;
  feature: string;
  calls: number;
  input_tokens: Big;
  output_tokens: Big;
  cost_micros: Big;
}

export interface ModelPricesTable {
  model: string;
  input_micros_per_million: Big;
  output_micros_per_million: Big;
  updated_at: string;
}

export interface UsageBudgetsTable {
  scope_key: string;
  organization_id: string;
  user_id: string | null;
  monthly_micros: Big;
  updated_at: string;
}

export interface UsageCountersTable {
  scope_key: string;
  month: string;
  used_micros: Big;
  reserved_micros: Big;
  warned: number;
}

export interface UsageTables {
  usage_events: UsageEventsTable;
  usage_daily: UsageDailyTable;
  model_prices: ModelPricesTable;
  usage_budgets: UsageBudgetsTable;
  usage_counters: UsageCountersTable;
}
