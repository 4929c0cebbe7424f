import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Co2ReductionNote, co2ReductionNote, NEGATIVE_CO2_REDUCTION } from './co2-reduction';

afterEach(cleanup);

describe('a CO2 reduction below zero', () => {
  it('is explained when the period or the lifetime value is below zero', () => {
    expect(co2ReductionNote([-17.7, 120])).toBe(NEGATIVE_CO2_REDUCTION);
    expect(co2ReductionNote([3.2, -0.1])).toBe(NEGATIVE_CO2_REDUCTION);
    expect(NEGATIVE_CO2_REDUCTION).toMatch(/more CO2 than it saved/);
  });

  it('needs no note at zero, above zero or without data', () => {
    expect(co2ReductionNote([0, 12.5])).toBeNull();
    expect(co2ReductionNote([null, undefined])).toBeNull();
    expect(co2ReductionNote([])).toBeNull();
  });

  it('shows under the values', () => {
    render(<Co2ReductionNote values={[-17.7, null]} testId="note" />);
    expect(screen.getByTestId('note').textContent).toBe(NEGATIVE_CO2_REDUCTION);
    cleanup();
    render(<Co2ReductionNote values={[17.7, null]} testId="note" />);
    expect(screen.queryByTestId('note')).toBeNull();
  });
});
