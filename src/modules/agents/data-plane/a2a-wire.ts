/** A2A v1 wire facts the proxy needs (method names, error codes, where task ids live in payloads). */

export const JSONRPC_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
] as const;
export type A2aMethod = (typeof JSONRPC_METHODS)[number];

/** What history records: the v1 operations, plus card fetches and push traffic (no A2A operations of their own). */
export const HISTORY_OPERATIONS = [...JSONRPC_METHODS, 'GetAgentCard', 'PushNotification', 'PushDelivery'] as const;

export const STREAMING_METHODS: ReadonlySet<string> = new Set(['SendStreamingMessage', 'SubscribeToTask']);

export function isA2aMethod(method: string): method is A2aMethod {
  return (JSONRPC_METHODS as readonly string[]).includes(method);
}

/** The A2A v0.3 JSON-RPC method names, by the v1 operation each became. */
const V03_METHODS: Readonly<Record<string, A2aMethod>> = {
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/get': 'GetTask',
  'tasks/list': 'ListTasks',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
  'tasks/pushNotificationConfig/set': 'CreateTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/get': 'GetTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/list': 'ListTaskPushNotificationConfigs',
  'tasks/pushNotificationConfig/delete': 'DeleteTaskPushNotificationConfig',
  'agent/getAuthenticatedExtendedCard': 'GetExtendedAgentCard',
};

/**
 * The A2A v1 operation a JSON-RPC call is recorded under in history: its method when it is a v1 one, the v1
 * operation a v0.3 method name became (the call is still refused, -32601), and none for anything else (no method,
 * an unknown one): such a call is no A2A operation and leaves no history row, only its error's log line.
 */
export function historyOperationOf(method: string | undefined): A2aMethod | undefined {
  if (method === undefined) return undefined;
  return isA2aMethod(method) ? method : V03_METHODS[method];
}

/** JSON-RPC 2.0 and A2A §5.4 error codes. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  taskNotFound: -32001,
  pushNotSupported: -32003,
  unsupportedOperation: -32004,
} as const;

export const A2A_JSON = 'application/a2a+json';

export interface TaskInfo {
  task_id?: string;
  context_id?: string;
  task_state?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function stateOf(status: unknown): string | undefined {
  return isObj(status) ? str(status.state) : undefined;
}

/**
 * Task id, context id and state of any A2A result: a Task, a Message, a StreamResponse / SendMessageResponse
 * (`task` | `message` | `statusUpdate` | `artifactUpdate` wrappers) or a push config.
 */
export function taskInfoOf(value: unknown): TaskInfo {
  if (!isObj(value)) return {};
  if (isObj(value.task)) return taskInfoOf(value.task);
  if (isObj(value.message)) return taskInfoOf(value.message);
  if (isObj(value.statusUpdate)) return taskInfoOf(value.statusUpdate);
  if (isObj(value.artifactUpdate)) return taskInfoOf(value.artifactUpdate);
  if (str(value.id) && isObj(value.status)) {
    return { task_id: str(value.id), context_id: str(value.contextId), task_state: stateOf(value.status) };
  }
  return { task_id: str(value.taskId), context_id: str(value.contextId), task_state: stateOf(value.status) };
}

/** The task a request is about (GetTask/CancelTask/SubscribeToTask `id`, push config `taskId`, message.taskId). */
export function requestTaskInfo(params: unknown): TaskInfo {
  if (!isObj(params)) return {};
  if (isObj(params.message)) {
    return { task_id: str(params.message.taskId), context_id: str(params.message.contextId) };
  }
  return { task_id: str(params.taskId) ?? str(params.id) };
}

export interface RestRoute {
  operation: A2aMethod;
  /** The path relative to the interface URL, segments still percent-encoded, without tenant. */
  path: string;
  taskId?: string;
  configId?: string;
}

const FIRST_SEGMENTS = new Set(['message:send', 'message:stream', 'tasks', 'extendedAgentCard']);

/** Maps an HTTP+JSON request (method + path after `/rest`) to its v1 operation; undefined when it is none. */
export function matchRestRoute(method: string, rawPath: string): RestRoute | undefined {
  let segments = rawPath.split('/').filter((s) => s.length > 0);
  // A leading segment that is not an A2A resource is the caller's tenant; the upstream's own tenant replaces it.
  const first = segments[0];
  if (segments.length > 1 && first !== undefined && !FIRST_SEGMENTS.has(first) && !first.startsWith('tasks')) {
    segments = segments.slice(1);
  }
  const path = segments.join('/');
  const decode = (s: string | undefined) => (s === undefined ? undefined : decodeURIComponent(s));
  const m = method.toUpperCase();
  const [a, b, c, d] = segments;
  if (segments.length === 1 && a === 'message:send' && m === 'POST') return { operation: 'SendMessage', path };
  if (segments.length === 1 && a === 'message:stream' && m === 'POST')
    return { operation: 'SendStreamingMessage', path };
  if (segments.length === 1 && a === 'extendedAgentCard' && m === 'GET')
    return { operation: 'GetExtendedAgentCard', path };
  if (segments.length === 1 && a === 'tasks' && m === 'GET') return { operation: 'ListTasks', path };
  if (a !== 'tasks' || b === undefined) return undefined;
  if (segments.length === 2) {
    if (b.endsWith(':cancel') && m === 'POST') return { operation: 'CancelTask', path, taskId: decode(b.slice(0, -7)) };
    if (b.endsWith(':subscribe') && (m === 'GET' || m === 'POST')) {
      return { operation: 'SubscribeToTask', path, taskId: decode(b.slice(0, -10)) };
    }
    if (m === 'GET') return { operation: 'GetTask', path, taskId: decode(b) };
    return undefined;
  }
  if (c !== 'pushNotificationConfigs') return undefined;
  if (segments.length === 3) {
    if (m === 'POST') return { operation: 'CreateTaskPushNotificationConfig', path, taskId: decode(b) };
    if (m === 'GET') return { operation: 'ListTaskPushNotificationConfigs', path, taskId: decode(b) };
    return undefined;
  }
  if (segments.length === 4 && d !== undefined) {
    if (m === 'GET')
      return { operation: 'GetTaskPushNotificationConfig', path, taskId: decode(b), configId: decode(d) };
    if (m === 'DELETE') {
      return { operation: 'DeleteTaskPushNotificationConfig', path, taskId: decode(b), configId: decode(d) };
    }
  }
  return undefined;
}
