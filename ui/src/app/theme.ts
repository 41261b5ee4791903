import { createTheme, Modal, Notification, type CSSVariablesResolver } from '@mantine/core';

/** The dashboard's look: Mantine's defaults, light or dark as the system says (MantineProvider `auto`). */
export const theme = createTheme({
  primaryColor: 'blue',
  // White on blue.6 measures 3.6:1; blue.8 passes WCAG AA (4.5:1) for button and link text.
  primaryShade: 8,
  defaultRadius: 'sm',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  // Mantine's close buttons carry only an icon: a dialog's is named Close and a toast's Dismiss (axe `button-name`).
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
      // Under a title Mantine greys the message to gray.6 (3.3:1 on white): the dimmed colour passes AA.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
  },
});

/** Secondary text with WCAG AA contrast in both schemes (Mantine's gray.6 on white measures 3.3:1). */
export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
