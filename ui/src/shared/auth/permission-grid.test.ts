import { describe, expect, it } from 'vitest';
import {
  gridField,
  gridOf,
  gridResources,
  notHeld,
  permissionSummary,
  permissionsOf,
  splitPermission,
  toggle,
  toggleMany,
} from './permission-grid';

describe('permission grid', () => {
  it('splits Resource:Operation and refuses anything else', () => {
    expect(splitPermission('Logs:View')).toEqual({ resource: 'Logs', operation: 'View' });
    expect(splitPermission('Logs:Read')).toBeUndefined();
    expect(splitPermission('Logs')).toBeUndefined();
    expect(splitPermission(':View')).toBeUndefined();
    expect(splitPermission('Logs:View:x')).toBeUndefined();
  });

  it('rows are every resource named by any list, sorted, once', () => {
    expect(gridResources(['Logs:View', 'Cache:Delete'], new Set(['Logs:Delete', 'AuditLogs:View']), undefined)).toEqual(
      ['AuditLogs', 'Cache', 'Logs'],
    );
  });

  it('a list becomes rows of checks and back, sorted and without duplicates', () => {
    const rows = gridOf(['Logs:View', 'Logs:Delete', 'Cache:View'], ['Cache', 'Logs', 'Teams']);
    expect(rows).toEqual([
      { resource: 'Cache', granted: { View: true, Create: false, Update: false, Delete: false } },
      { resource: 'Logs', granted: { View: true, Create: false, Update: false, Delete: true } },
      { resource: 'Teams', granted: { View: false, Create: false, Update: false, Delete: false } },
    ]);
    expect(permissionsOf(rows)).toEqual(['Cache:View', 'Logs:Delete', 'Logs:View']);
    expect(permissionsOf(gridOf(['Logs:View', 'Logs:View'], ['Logs']))).toEqual(['Logs:View']);
  });

  it('ticks and unticks one cell', () => {
    expect(toggle(['Logs:View'], 'Cache:View', true)).toEqual(['Cache:View', 'Logs:View']);
    expect(toggle(['Logs:View'], 'Logs:View', true)).toEqual(['Logs:View']);
    expect(toggle(['Cache:View', 'Logs:View'], 'Logs:View', false)).toEqual(['Cache:View']);
  });

  it('ticks a row or a column, leaving the cells the caller may not grant', () => {
    const row = ['Logs:View', 'Logs:Create', 'Logs:Update', 'Logs:Delete'];
    expect(toggleMany([], row, true, (p) => p !== 'Logs:Create')).toEqual(['Logs:Delete', 'Logs:Update', 'Logs:View']);
    expect(toggleMany(['Logs:View', 'Teams:View'], row, false)).toEqual(['Teams:View']);
  });

  it('summarises by resource, and names what the caller does not hold', () => {
    expect(permissionSummary(['Logs:View', 'Logs:Delete', 'Cache:View'])).toEqual([
      'Cache: View',
      'Logs: View, Delete',
    ]);
    expect(notHeld(['Logs:View', 'Teams:View'], new Set(['Logs:View']), false)).toEqual(['Teams:View']);
    expect(notHeld(['Logs:View', 'Teams:View'], new Set(), true)).toEqual([]);
  });

  it('a refused list item lands on the grid', () => {
    expect(gridField('permissions[2]', 'permissions')).toBe('permissions');
    expect(gridField('scopes', 'scopes')).toBe('scopes');
    expect(gridField('name', 'permissions')).toBeUndefined();
  });
});
