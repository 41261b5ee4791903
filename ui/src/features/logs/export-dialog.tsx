import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { formatNumber } from '../../shared/format/format';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { exportLogs, type ExportFormat } from './export-logs';
import type { LogsQuery } from './live-filter';

/** Saves text as a file through the browser's download. */
function download(lines: string[], name: string, type: string): void {
  const url = URL.createObjectURL(new Blob(lines, { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The export of the current filter, with its progress and a cancel; the file downloads when every page is read. */
export function ExportDialog({
  format,
  query,
  onClose,
}: {
  format: ExportFormat | undefined;
  query: LogsQuery;
  onClose: () => void;
}) {
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [error, setError] = useState<unknown>();
  const [running, setRunning] = useState(false);
  const controller = useRef<AbortController>(undefined);

  const start = async (chosen: ExportFormat) => {
    controller.current = new AbortController();
    setRunning(true);
    setError(undefined);
    setProgress({ done: 0, total: 0 });
    try {
      const lines = await exportLogs({
        query,
        format: chosen,
        signal: controller.current.signal,
        fetchPage: (page, signal) => call(api.GET('/api/logs', { params: { query: page }, signal })),
        onProgress: (done, total) => setProgress({ done, total }),
      });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      download(lines, `request-logs-${stamp}.${chosen}`, chosen === 'csv' ? 'text/csv' : 'application/x-ndjson');
      notifications.show({
        color: 'green',
        message: `Exported ${formatNumber(lines.length - (chosen === 'csv' ? 1 : 0))} logs`,
      });
      close();
    } catch (caught) {
      if (controller.current?.signal.aborted) return;
      setError(caught);
      notifications.show({ color: 'red', ...describeError(caught) });
    } finally {
      controller.current = undefined;
      setRunning(false);
    }
  };

  const close = () => {
    controller.current?.abort();
    controller.current = undefined;
    setRunning(false);
    setProgress(undefined);
    setError(undefined);
    onClose();
  };

  const percent = progress && progress.total > 0 ? (progress.done / progress.total) * 100 : 0;
  return (
    <Modal opened={format !== undefined} onClose={close} title={`Export as ${format?.toUpperCase()}`} centered>
      <Stack gap="md">
        <Text size="sm">
          Every log of the current filters, read 1,000 at a time. Logs arriving meanwhile are not included.
        </Text>
        {progress && (
          <Stack gap={4}>
            <Progress value={percent} aria-label="Export progress" animated={running} />
            <Text size="sm" aria-live="polite">
              {formatNumber(progress.done)} of {formatNumber(progress.total)} logs
            </Text>
          </Stack>
        )}
        {error !== undefined && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {running ? 'Cancel export' : 'Close'}
          </Button>
          {!running && format && (
            <Button onClick={() => void start(format)}>{error ? 'Try again' : 'Start export'}</Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
