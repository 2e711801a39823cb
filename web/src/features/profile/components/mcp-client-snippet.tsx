import { CopyButton } from '../../../components/copy-button';
import { Input } from '../../../components/ui/input';
import { Textarea } from '../../../components/ui/textarea';

/** Shown in the snippet where the person pastes their key (the secret itself is shown only once). */
export const MCP_KEY_PLACEHOLDER = '<your API key>';

/** The app's MCP endpoint: this origin + `/mcp` (the web and the API share one origin). */
export function mcpAddress(origin: string = window.location.origin): string {
  return `${origin}/mcp`;
}

/**
 * The configuration an MCP client reads (the `mcpServers` shape of Claude Desktop, Cursor, VS Code and
 * others) for a server over the Streamable HTTP transport, with the key as a bearer token.
 */
export function mcpClientConfig(address: string, key: string = MCP_KEY_PLACEHOLDER): string {
  const config = {
    mcpServers: {
      'command-centre': {
        type: 'http',
        url: address,
        headers: { Authorization: `Bearer ${key}` },
      },
    },
  };
  return JSON.stringify(config, null, 2);
}

/** The /mcp address and a client snippet to copy, so a key can be put to use without reading docs. */
export function McpClientSnippet({ apiKey }: { apiKey?: string }) {
  const address = mcpAddress();
  const snippet = mcpClientConfig(address, apiKey);
  return (
    <section aria-label="Connect an MCP client" className="flex flex-col gap-2 text-sm">
      <h3 className="font-medium">Connect an MCP client</h3>
      <p className="text-muted-foreground">
        MCP address (Streamable HTTP): send the key as <code>Authorization: Bearer …</code>.
      </p>
      <div className="flex items-center gap-2">
        <Input
          readOnly
          aria-label="MCP address"
          value={address}
          onFocus={(e) => e.currentTarget.select()}
          className="font-mono text-xs"
        />
        <CopyButton text={address} label="Copy MCP address" />
      </div>
      <div className="flex items-start gap-2">
        <Textarea
          readOnly
          aria-label="MCP client configuration"
          value={snippet}
          rows={snippet.split('\n').length}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 font-mono text-xs"
        />
        <CopyButton text={snippet} label="Copy MCP client configuration" />
      </div>
      {apiKey ? null : (
        <p className="text-muted-foreground text-xs">
          Replace {MCP_KEY_PLACEHOLDER} with a key that has the scopes the client needs.
        </p>
      )}
    </section>
  );
}
