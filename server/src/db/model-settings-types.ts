/** Super Admin → Models (migration 0040): one row per setting; keys sealed with SECRETS_KEY. */
export interface ModelSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface ModelSettingsTables {
  model_settings: ModelSettingsTable;
}
