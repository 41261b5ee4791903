import {
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { RuntimeSettingsUpdate } from '../../api/constraints.gen';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconRotateClockwise } from '../../shared/ui/icons';
import {
  blankProblems,
  formValues,
  requestValues,
  resetPatch,
  sectionsOf,
  settingRows,
  settingsPatch,
  sourceBadge,
  toFormValue,
  valueAt,
  valueText,
  type RuntimeConfig,
  type SettingRow,
} from './settings-helpers';

const CONFIG_KEY = ['settings', 'config'] as const;

function SourceBadge({ row }: { row: SettingRow }) {
  const badge = sourceBadge(row.source);
  return (
    <Tooltip label={badge.meaning}>
      <span>
        <VisuallyHidden>Source: </VisuallyHidden>
        <Badge variant={badge.variant} color={badge.color} tt="none">
          {badge.label}
        </Badge>
      </span>
    </Tooltip>
  );
}

type Form = ReturnType<typeof useApiForm<Record<string, unknown>>>['form'];

function SettingInput({ row, form }: { row: SettingRow; form: Form }) {
  const label = row.key;
  switch (row.kind) {
    case 'boolean':
      return <Switch aria-label={label} {...form.getInputProps(row.key, { type: 'checkbox' })} />;
    case 'enum':
      return (
        <Select
          aria-label={label}
          data={(row.field.enum ?? []).map(String)}
          allowDeselect={false}
          w={200}
          {...form.getInputProps(row.key)}
        />
      );
    case 'list':
      return (
        <Textarea
          aria-label={label}
          description="One a line"
          autosize
          minRows={1}
          maxRows={6}
          {...form.getInputProps(row.key)}
        />
      );
    case 'integer':
      return (
        <TextInput
          aria-label={label}
          inputMode="numeric"
          description={range(row)}
          w={200}
          {...form.getInputProps(row.key)}
        />
      );
    case 'string':
      return <TextInput aria-label={label} {...form.getInputProps(row.key)} />;
  }
}

function range(row: SettingRow): string | undefined {
  const { minimum, maximum } = row.field;
  if (minimum !== undefined && maximum !== undefined) return `${minimum} to ${maximum}`;
  return undefined;
}

/**
 * The runtime settings (`GET /api/config`), each with its value and source, edited in one form whose save sends only
 * what changed (`PUT /api/config`); a refusal lands on the setting it names. Reset sends `null` for one setting.
 */
export function RuntimeConfigPanel() {
  const config = useQuery({
    queryKey: CONFIG_KEY,
    queryFn: ({ signal }) => call(api.GET('/api/config', { signal })),
  });
  if (config.isError) return <ErrorAlert error={config.error} />;
  if (!config.data)
    return (
      <Text c="dimmed" size="sm">
        Loading the settings…
      </Text>
    );
  return <RuntimeConfigForm config={config.data} />;
}

function RuntimeConfigForm({ config }: { config: RuntimeConfig }) {
  const queryClient = useQueryClient();
  const rows = useMemo(() => settingRows(config), [config]);
  const [resetting, setResetting] = useState<string>();
  const { form, formError, onSubmit } = useApiForm<Record<string, unknown>>({
    initialValues: formValues(rows),
    constraints: RuntimeSettingsUpdate,
    toRequest: (values) => requestValues(rows, values),
    validate: (values) => blankProblems(rows, values),
  });
  const { changed } = settingsPatch(rows, form.getValues());

  const submit = onSubmit(async (values) => {
    const { patch, changed: keys } = settingsPatch(rows, values);
    if (keys.length === 0) return;
    const saved = await call(api.PUT('/api/config', { body: patch }));
    queryClient.setQueryData(CONFIG_KEY, saved);
    notifications.show({ color: 'green', message: `Saved ${keys.join(', ')}` });
  });

  const reset = async (row: SettingRow) => {
    setResetting(row.key);
    try {
      const saved = await call(api.PUT('/api/config', { body: resetPatch(row.key) }));
      queryClient.setQueryData(CONFIG_KEY, saved);
      const value = valueAt(saved.config, row.key);
      form.setFieldValue(row.key, toFormValue(row, value));
      form.clearFieldError(row.key);
      notifications.show({
        color: 'green',
        message: `${row.key} is back to ${valueText(value)} (${saved.sources[row.key] ?? 'default'})`,
      });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    } finally {
      setResetting(undefined);
    }
  };

  return (
    <Stack gap="md">
      <form onSubmit={submit} noValidate aria-label="Runtime settings">
        <Stack gap="md">
          {sectionsOf(rows).map(({ section, rows: list }) => (
            <Paper
              key={section}
              withBorder
              p="md"
              radius="md"
              component="section"
              aria-labelledby={`section-${section}`}
            >
              <Stack gap="xs">
                <Title order={2} size="h4" id={`section-${section}`}>
                  {section}
                </Title>
                <Stack gap={0} role="list" aria-label={`${section} settings`}>
                  {list.map((row) => (
                    <Grid
                      key={row.key}
                      role="listitem"
                      aria-label={row.key}
                      align="center"
                      gap="xs"
                      py={8}
                      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                    >
                      <Grid.Col span={{ base: 12, sm: 4 }}>
                        <Text ff="monospace" size="sm" style={{ wordBreak: 'break-word' }}>
                          {row.key}
                        </Text>
                        {changed.includes(row.key) && (
                          <Text size="xs" c="orange.9">
                            Not saved (was {valueText(row.value)})
                          </Text>
                        )}
                      </Grid.Col>
                      <Grid.Col span={{ base: 12, sm: 5 }}>
                        <SettingInput row={row} form={form} />
                      </Grid.Col>
                      <Grid.Col span={{ base: 12, sm: 3 }}>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <SourceBadge row={row} />
                          <GatedButton
                            permission="Settings:Update"
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconRotateClockwise size={14} aria-hidden />}
                            aria-label={`Reset ${row.key}`}
                            disabled={row.source !== 'api'}
                            title={
                              row.source === 'api'
                                ? 'Back to the config file or default value'
                                : 'Not set here: already the file or default value'
                            }
                            loading={resetting === row.key}
                            onClick={() => void reset(row)}
                          >
                            Reset
                          </GatedButton>
                        </Group>
                      </Grid.Col>
                    </Grid>
                  ))}
                </Stack>
              </Stack>
            </Paper>
          ))}
          {formError !== undefined && <ErrorAlert error={formError} />}
          <Paper
            withBorder
            p="sm"
            radius="md"
            shadow={changed.length > 0 ? 'sm' : undefined}
            style={{ position: 'sticky', bottom: 8, zIndex: 2 }}
          >
            <Group justify="flex-end" gap="sm">
              <Text size="sm" c="dimmed" aria-live="polite">
                {changed.length === 0 ? 'No unsaved change' : `${changed.length} unsaved change(s)`}
              </Text>
              <Button
                variant="default"
                disabled={changed.length === 0}
                onClick={() => {
                  form.setValues(formValues(rows));
                  form.clearErrors();
                }}
              >
                Discard
              </Button>
              <GatedButton
                permission="Settings:Update"
                type="submit"
                loading={form.submitting}
                disabled={changed.length === 0}
              >
                Save changes
              </GatedButton>
            </Group>
          </Paper>
        </Stack>
      </form>
      <ProcessSettings process={config.process} />
    </Stack>
  );
}

function ProcessSettings({ process }: { process: RuntimeConfig['process'] }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="section-process">
      <Stack gap="xs">
        <Title order={2} size="h4" id="section-process">
          Process
        </Title>
        <Text size="sm" c="dimmed">
          Read-only: set in the config file, the environment or a flag, and applied by a restart.
        </Text>
        <Table verticalSpacing={4} aria-label="Process settings">
          <Table.Tbody>
            {Object.entries(process).map(([key, value]) => (
              <Table.Tr key={key}>
                <Table.Th w="40%" fw={400} ff="monospace" fz="sm" style={{ wordBreak: 'break-word' }}>
                  {key}
                </Table.Th>
                <Table.Td style={{ wordBreak: 'break-all' }}>{valueText(value)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
