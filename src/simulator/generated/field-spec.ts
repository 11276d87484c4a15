/** Shapes of the generated pull zone field tables (see pull-zone-tables.ts). */
export type FieldKind =
  'boolean' | 'integer' | 'number' | 'string' | 'string[]' | 'object[]' | 'enum';

/** One property of the pull zone update model. */
export interface SettingsField {
  name: string;
  kind: FieldKind;
  format?: string;
  min?: number;
  max?: number;
  enum?: number[];
}

/** One property of the pull zone record returned by the API. */
export interface RecordField {
  name: string;
  kind: FieldKind;
  nullable: boolean;
  enum?: number[];
}
