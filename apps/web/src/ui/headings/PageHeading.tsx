import { Typography, type TypographyProps } from '@mui/material';
import { visuallyHidden } from '../a11y/visually-hidden';

type HeadingProps = Omit<TypographyProps<'h1'>, 'component'> & {
  /** Read by screen readers only: for pages whose design shows no title (the tabs say where one is). */
  hidden?: boolean;
};

/**
 * The page's one h1. Every page of the route table has exactly one, and the headings below it go down one level
 * at a time (sections h2, their parts h3): screen reader users jump through a page by its headings.
 */
export function PageHeading({ hidden, variant = 'h5', sx, ...props }: HeadingProps) {
  return <Typography component="h1" variant={variant} sx={hidden ? visuallyHidden : sx} {...props} />;
}
