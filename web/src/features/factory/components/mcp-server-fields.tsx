import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { FormField } from '../../../components/form-field';

export const MCP_URL_LABEL = 'MCP server URL';
export const MCP_HEADERS_LEGEND = 'Headers';
export const MCP_HEADERS_HINT =
  'Sent with every request to the server (e.g. Authorization). Values are stored encrypted and never shown again.';
export const MCP_ADD_HEADER = 'Add header';
export const MCP_APPROVAL_HINT =
  "Saving lists the server's tools. Each call an agent makes waits for approval, unless you name the tool as read-only below (what the server claims is only shown as a hint); tick the box below to gate them all.";
export const MCP_READ_ONLY_LABEL = 'Read-only tools (names, comma-separated)';

/** The tool names typed in the read-only field, trimmed, without blanks or repeats. */
export function readOnlyNamesOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

export interface HeaderRow {
  name: string;
  value: string;
}

interface McpServerFieldsProps {
  url: string;
  onUrlChange: (url: string) => void;
  headers: HeaderRow[];
  onHeadersChange: (headers: HeaderRow[]) => void;
  /** The names the owner marks read-only (their calls need no approval), as typed. */
  readOnly: string;
  onReadOnlyChange: (text: string) => void;
}

/** The headers to send: rows with a name (the last value wins when a name repeats). */
export function headersOf(rows: HeaderRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]));
}

/** The MCP server of a tool of kind "mcp": its Streamable-HTTP URL and secret headers. */
export function McpServerFields({
  url,
  onUrlChange,
  headers,
  onHeadersChange,
  readOnly,
  onReadOnlyChange,
}: McpServerFieldsProps) {
  const update = (i: number, patch: Partial<HeaderRow>) =>
    onHeadersChange(headers.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  return (
    <>
      <FormField id="tool-mcp-url" label={MCP_URL_LABEL}>
        <Input
          id="tool-mcp-url"
          type="url"
          inputMode="url"
          placeholder="https://mcp.example.com/mcp"
          value={url}
          onChange={(e) => onUrlChange(e.target.value)}
        />
      </FormField>
      <p className="text-xs text-muted-foreground">{MCP_APPROVAL_HINT}</p>
      <FormField id="tool-mcp-read-only" label={MCP_READ_ONLY_LABEL}>
        <Input
          id="tool-mcp-read-only"
          placeholder="lookup_ticket, list_projects"
          value={readOnly}
          onChange={(e) => onReadOnlyChange(e.target.value)}
        />
      </FormField>
      <fieldset className="flex flex-col gap-2" aria-describedby="tool-mcp-headers-hint">
        <legend className="mb-1 text-sm font-medium">{MCP_HEADERS_LEGEND}</legend>
        <p id="tool-mcp-headers-hint" className="text-xs text-muted-foreground">
          {MCP_HEADERS_HINT}
        </p>
        {headers.map((h, i) => (
          // Rows have no identity beyond their position; the inputs are controlled, so a key by index is safe.
          <div key={i} className="grid grid-cols-[1fr_1fr_auto] gap-2">
            <Input
              aria-label={`Header ${i + 1} name`}
              placeholder="Authorization"
              value={h.name}
              onChange={(e) => update(i, { name: e.target.value })}
            />
            <Input
              aria-label={`Header ${i + 1} value`}
              type="password"
              autoComplete="off"
              value={h.value}
              onChange={(e) => update(i, { value: e.target.value })}
            />
            <Button
              type="button"
              variant="ghost"
              aria-label={`Remove header ${i + 1}`}
              onClick={() => onHeadersChange(headers.filter((_, j) => j !== i))}
            >
              ×
            </Button>
          </div>
        ))}
        <Button
          type="button"
          variant="outline"
          className="self-start"
          onClick={() => onHeadersChange([...headers, { name: '', value: '' }])}
        >
          {MCP_ADD_HEADER}
        </Button>
      </fieldset>
    </>
  );
}
