import { Avatar } from '@mui/material';
import DirectionsBoatOutlined from '@mui/icons-material/DirectionsBoatOutlined';

/** The ship's image (uploaded on the Info screen), or a ship icon when there is none. */
export function ShipImage({ name, image, size }: { name: string; image: string | null; size: number }) {
  return (
    <Avatar
      variant="rounded"
      src={image ?? undefined}
      alt={image ? `Image of ${name}` : undefined}
      data-testid="ship-image"
      data-has-image={Boolean(image)}
      sx={{ width: size, height: size, bgcolor: 'grey.200', color: 'grey.600' }}
    >
      <DirectionsBoatOutlined aria-hidden />
    </Avatar>
  );
}
