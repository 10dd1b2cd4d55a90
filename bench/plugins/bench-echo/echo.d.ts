// Types for echo.js, which stays plain JavaScript so child processes load it without tsx.
export declare const ECHO_TOOL: 'bench_echo';
export declare const echoInputSchema: Record<string, unknown>;
export declare const echoDescription: string;
export declare function echo(args: { text: string }): { text: string };
export declare function echoMcpResult(args: { text: string }): { content: Array<{ type: 'text'; text: string }> };
export declare function syntheticTool(index: number): {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
};
