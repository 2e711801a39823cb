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

/** A model call in flight (migration 0034): its hold, its owner's lease and what it used so far. */
export interface UsageReservationsTable {
  id: string;
  /** the instance making the call */
  owner: string;
  /** ISO time; past it, any instance may settle the row as an interrupted call */
  lease_until: string;
  month: string;
  /** the budget counters held, '\n'-separated ('' when none) */
  scope_keys: string;
  reserved_micros: Big;
  user_id: string | null;
  organization_id: string | null;
  model: string;
  engine: string;
  feature: string;
  conversation_id: string | null;
  run_id: string | null;
  agent_id: string | null;
  /** the prompt's estimate, then the model's figure when known */
  input_tokens: number;
  /** what streamed so far (renewed with the lease) */
  output_tokens: number;
  input_micros_per_million: Big;
  output_micros_per_million: Big;
  started_at: string;
}

export interface ModelOffersTable {
  model: string;
  updated_at: string;
}

export interface UsageSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface UsageTables {
  usage_reservations: UsageReservationsTable;
  model_offers: ModelOffersTable;
  usage_settings: UsageSettingsTable;
  usage_events: UsageEventsTable;
  usage_daily: UsageDailyTable;
  model_prices: ModelPricesTable;
  usage_budgets: UsageBudgetsTable;
  usage_counters: UsageCountersTable;
}
